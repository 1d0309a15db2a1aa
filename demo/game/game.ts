// The framed browser game: its login button starts gameSession()'s login (a popup), then the player's name and saves go through the site's backend with the
// game token it answered (the package's `createSessions`: a cookie of the site would be
// third-party in this frame).
import { gameSession, playerMessage, type ItchOAuthError, type ItchOAuthErrorCode } from '../../src/index.js';

const root = document.querySelector<HTMLElement>('.game')!;
const field = (name: string) => root.querySelector<HTMLElement>(`[data-${name}]`)!;
const settings = root.dataset as { clientId: string; redirectUri: string; baseUrl: string; backend: string };
const backend = new URL(settings.backend);
const progressUrl = new URL('/api/game/progress', backend);

// The game's login, kept: its game token is bound to a key this page cannot export (DPoP), renewed
// before it expires, and sent with a proof on every call to the site; any other game on this
// origin can read the page's storage, and a token read there is worthless without the key.
const session = gameSession({
  clientId: settings.clientId,
  redirectUri: settings.redirectUri,
  baseUrl: settings.baseUrl,
  backend: backend.href,
  renew: new URL('/api/game/renew', backend).href,
  onSignedOut: () => {
    root.dataset['signedIn'] = 'false';
    status('Your session has ended: log in again to save.');
  },
});

let stars = 0;

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

const signedIn = async ({ user, owns }: Awaited<ReturnType<typeof session.login>>) => {
  root.dataset['signedIn'] = 'true';
  // Shown always: any game on the same origin could replace the kept login with its own.
  field('player').textContent = user.display_name || user.username;
  const answer = await session.fetch(progressUrl);
  const saved = ((await answer.json()) as { progress: { stars?: number } | null }).progress;
  if (saved?.stars !== undefined && saved.stars > stars) stars = saved.stars;
  show();
  // A game login is not a session of the site around the game (its cookie would be third-party
  // here): the page's own "Log in" stays as it was, and the player is told why.
  status(
    `${saved === null ? 'Signed in to the game: your stars will be saved on the keep.' : `Welcome back: your ${saved.stars ?? 0} saved stars are here.`} This signs you in to the game only: the site's own "Log in" is separate.`,
  );
  // The owners-only feature: offered to owners; the backend checks again when it is played.
  const ownsGame = Object.values(owns ?? {}).includes(true);
  field('vault').hidden = !ownsGame;
  field('pitch').hidden = ownsGame;
};

const failed = async (code: ItchOAuthErrorCode) => {
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
};

// The click logs in through the session (the popup opens within the click), whose game token is
// bound to this page's key.
field('login').addEventListener('click', () => {
  session.login().then(signedIn, (error: ItchOAuthError) => failed(error.code));
});

field('vault').addEventListener('click', async () => {
  if (!session.signedIn) return;
  const answer = await session.fetch(new URL('/api/game/vault', backend));
  if (!answer.ok) return status('The vault stays shut: it is for owners of Starfall Keep.');
  const vault = (await answer.json()) as { level: { name: string } };
  status(`Vault level unlocked: ${vault.level.name}.`);
});

field('save').addEventListener('click', async () => {
  if (!session.signedIn) return;
  const answer = await session.fetch(progressUrl, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ progress: { stars } }),
  });
  status(answer.ok ? `Saved: ${stars} stars.` : 'Saving failed: try again.');
});

show();
// Ready for the player: every listener above is attached. (Tests wait for this instead of clicking
// into a game that is still loading.)
root.dataset['ready'] = 'true';
