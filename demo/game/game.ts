// The framed browser game: the login button (popup mode, the default in a frame), then the
// player's name and saves through the site's backend with the game token it answered (the
// package's `createSessions`: a cookie of the site would be third-party in this frame).
import '../../src/define.js';
import { playerMessage, type ItchLoginButton } from '../../src/index.js';

interface GameLogin {
  user: { username: string; display_name?: string };
  /** A signed JWT (RFC 7519) for `Authorization: Bearer`; it expires (`exp`) and is renewed. */
  gameToken: string;
  /**
   * Which games the player owned at login, by id (checked by the site's backend). The backend
   * asks about one game only, Starfall Keep.
   */
  owns?: Record<string, boolean>;
}

const root = document.querySelector<HTMLElement>('.game')!;
const field = (name: string) => root.querySelector<HTMLElement>(`[data-${name}]`)!;
const backend = new URL(root.querySelector('itch-login-button')!.getAttribute('backend')!);
const progressUrl = new URL('/api/game/progress', backend);
const renewUrl = new URL('/api/game/renew', backend);

let stars = 0;
let session: string | undefined;
let renewal: ReturnType<typeof setTimeout> | undefined;

const show = () => {
  field('stars').textContent = String(stars);
  field('night').textContent = String(1 + Math.floor(stars / 5));
};
const status = (text: string) => {
  field('status').textContent = text;
};

field('catch').addEventListener('click', () => {
  stars++;
  show();
});

/** When a game token expires, in milliseconds (its `exp` claim; RFC 7519 section 4.1.4). */
const expiryOf = (token: string): number => {
  const payload = token.split('.')[1] ?? '';
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  return (JSON.parse(json) as { exp: number }).exp * 1000;
};

/** Keeps the game token: swaps it for a fresh one a minute before it expires, for as long as the site's session lasts. */
const keep = (token: string) => {
  session = token;
  clearTimeout(renewal);
  renewal = setTimeout(
    async () => {
      const answer = await fetch(renewUrl, { method: 'POST', headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined);
      if (answer?.ok) return keep(((await answer.json()) as { gameToken: string }).gameToken);
      session = undefined;
      root.dataset['signedIn'] = 'false';
      status('Your session has ended: log in again to save.');
    },
    Math.max(0, expiryOf(token) - Date.now() - 60_000),
  );
};

root.addEventListener('itch-login-success', async (event) => {
  const login = event.detail.response as GameLogin;
  keep(login.gameToken);
  root.dataset['signedIn'] = 'true';
  field('player').textContent = login.user.display_name || login.user.username;
  const answer = await fetch(progressUrl, { headers: { Authorization: `Bearer ${session}` } });
  const saved = ((await answer.json()) as { progress: { stars?: number } | null }).progress;
  if (saved?.stars !== undefined && saved.stars > stars) stars = saved.stars;
  show();
  // A game login is not a session of the site around the game (its cookie would be third-party
  // here): the page's own "Log in" stays as it was, and the player is told why.
  status(
    `${saved === null ? 'Signed in to the game: your stars will be saved on the keep.' : `Welcome back: your ${saved.stars ?? 0} saved stars are here.`} This signs you in to the game only: the site's own "Log in" is separate.`,
  );
  // The owners-only feature: offered to owners; the backend checks again when it is played.
  const ownsGame = Object.values(login.owns ?? {}).includes(true);
  field('vault').hidden = !ownsGame;
  field('pitch').hidden = ownsGame;
});

field('vault').addEventListener('click', async () => {
  if (session === undefined) return;
  const answer = await fetch(new URL('/api/game/vault', backend), { headers: { Authorization: `Bearer ${session}` } });
  if (!answer.ok) return status('The vault stays shut: it is for owners of Starfall Keep.');
  const vault = (await answer.json()) as { level: { name: string } };
  status(`Vault level unlocked: ${vault.level.name}.`);
});

root.addEventListener('itch-login-error', async (event) => {
  const { code } = event.detail;
  // not_owner: the site lets only owners log in (demo --owners-only); say where to get the game.
  field('pitch').hidden = code !== 'not_owner';
  // The player's sentence for the code, in the page's language (the message is the developer's).
  status(
    code === 'popup_closed'
      ? 'The login window was closed: nothing was saved.'
      : code === 'not_owner'
        ? 'You need to own Starfall Keep to log in here.'
        : `Could not log in. ${await playerMessage(code)}`,
  );
});

field('save').addEventListener('click', async () => {
  if (session === undefined) return;
  const answer = await fetch(progressUrl, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${session}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ progress: { stars } }),
  });
  status(answer.ok ? `Saved: ${stars} stars.` : 'Saving failed: try again.');
});

show();
// Ready for the player: every listener above is attached and the login button has rendered. (Tests
// wait for this instead of clicking into a game that is still loading.)
void root.querySelector<ItchLoginButton>('itch-login-button')!.updateComplete.then(() => {
  root.dataset['ready'] = 'true';
});
