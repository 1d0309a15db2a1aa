// The account page: what the backend's session holds about the signed-in player.
import { avatar, displayName, session } from './session.js';

/** The scopes in plain words (itch.io's consent page says much the same). */
const SCOPE_WORDING: Record<string, string> = {
  profile: 'Your public profile, your games, collections and library',
  'profile:me': 'Your public profile: username, display name and avatar',
  'profile:games': 'The games you are developing',
  'profile:collections': 'Your collections',
  'profile:owned': 'The games you have bought or claimed',
  'game:view:ownership': 'Whether you own our games',
  'game:view:rewards': 'Rewards claimed for games you develop',
};

const signedIn = document.querySelector<HTMLElement>('[data-account="in"]')!;
const signedOut = document.querySelector<HTMLElement>('[data-account="out"]')!;

function field(name: string): HTMLElement {
  return signedIn.querySelector<HTMLElement>(`[data-field="${name}"]`)!;
}

session.then((current) => {
  signedOut.hidden = current !== undefined;
  signedIn.hidden = current === undefined;
  if (current === undefined) return;

  const { user, scopes, signedInAt } = current;
  field('avatar').replaceChildren(avatar(user, 96));
  field('name').textContent = displayName(user);
  field('username').textContent = `@${user.username}`;
  const profile = field('profile') as HTMLAnchorElement;
  profile.href = new URL(user.url, 'https://itch.io').href;
  field('id').textContent = String(user.id);
  field('since').textContent = new Date(signedInAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  field('since').setAttribute('datetime', signedInAt);

  const roles = [user.gamer && 'Player', user.developer && 'Developer', user.press_user && 'Press'].filter((role) => role !== false);
  field('roles').replaceChildren(
    ...roles.map((role) => Object.assign(document.createElement('li'), { className: 'badge', textContent: role })),
  );

  field('scopes').replaceChildren(
    ...scopes.map((scope) => {
      const item = document.createElement('li');
      const code = Object.assign(document.createElement('code'), { textContent: scope });
      const words = Object.assign(document.createElement('span'), { textContent: SCOPE_WORDING[scope] ?? scope });
      item.append(words, code);
      return item;
    }),
  );
});
