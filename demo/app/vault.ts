// The vault page: the backend decides, from the ownership checked at login, whether this player
// may see the vault; the page only shows its answer.
import type { VaultContent } from '../server/vault.js';

const sections = new Map([...document.querySelectorAll<HTMLElement>('[data-vault]')].map((section) => [section.dataset['vault'], section]));
const field = (name: string) => document.querySelector<HTMLElement>(`[data-field="${name}"]`)!;

function show(name: 'out' | 'refused' | 'unavailable' | 'open'): void {
  for (const [key, section] of sections) section.hidden = key !== name;
}

interface Refusal {
  errors: string[];
  code?: string;
  storeUrl?: string;
}

async function openVault(): Promise<void> {
  const answer = await fetch('/api/vault', { credentials: 'same-origin', cache: 'no-store' }).catch(() => undefined);
  if (answer === undefined) {
    field('problem').textContent = 'The keep could not be reached: try again in a moment.';
    return show('unavailable');
  }
  if (answer.status === 401) return show('out');
  if (answer.status === 403) {
    const refusal = (await answer.json()) as Refusal;
    if (refusal.code === 'not_owner') {
      const session = (await (await fetch('/api/session', { cache: 'no-store' })).json()) as { user: { username: string } };
      field('player').textContent = `@${session.user.username}`;
      (field('store') as HTMLAnchorElement).href = refusal.storeUrl ?? 'https://itch.io';
      return show('refused');
    }
  }
  if (!answer.ok) {
    field('problem').textContent = ((await answer.json().catch(() => ({ errors: [] }))) as Refusal).errors[0] ?? `HTTP ${answer.status}`;
    return show('unavailable');
  }
  const vault = (await answer.json()) as VaultContent;
  field('title').textContent = vault.title;
  field('level-name').textContent = `Bonus level: ${vault.level.name}`;
  field('level-text').textContent = vault.level.text;
  field('soundtrack').replaceChildren(
    ...vault.soundtrack.map(({ title, length }) => Object.assign(document.createElement('li'), { textContent: `${title} (${length})` })),
  );
  show('open');
}

void openVault();
