// Plain TypeScript (and what Angular's strict templates read): HTMLElementTagNameMap and the
// global event map entries that come with the package's main types.
import 'itch-oauth-widget/define';
import { ItchOAuthError, login, type ItchOAuthErrorCode, type LoginAnswer } from 'itch-oauth-widget';

declare function show(response: unknown): void;
declare function showError(code: ItchOAuthErrorCode): void;

const button = document.querySelector('itch-login-button')!; // ItchLoginButton
button.addEventListener('itch-login-start', (event) => console.log(event.detail.url));
document.addEventListener('itch-login-success', (event) => show(event.detail.response));
button.mode = 'popup'; // popup mode collects the login from the backend:
button.backend = '/auth/itch';

// The game's own button: login() opens the itch.io popup in the click and resolves with the backend's answer.
const play = document.querySelector<HTMLButtonElement>('button#play')!;
play.addEventListener('click', () => {
  login({ clientId: 'YOUR_CLIENT_ID', redirectUri: `${location.origin}/callback.html`, backend: '/auth/itch', mode: 'popup' }).then(
    (result) => show(result.response),
    (error: unknown) => error instanceof ItchOAuthError && showError(error.code),
  );
});

// The token endpoint's answer with createTokenHandler and createSessions().onLogin: the player, what
// they own (with `ownership`), and a game token for a login started from a framed game's origin.
declare const answer: LoginAnswer;
const name: string = answer.user.display_name ?? answer.user.username;
const owned: boolean | undefined = answer.owns?.[2001];
const gameToken: string | undefined = answer.gameToken;
show([name, owned, gameToken]);

// Mistakes the types must reject:
// @ts-expect-error: the success detail has `response`, never the token
document.addEventListener('itch-login-success', (event) => show(event.detail.access_token));
// @ts-expect-error: the error detail has `code` and `message`, not `reason`
button.addEventListener('itch-login-error', (event) => show(event.detail.reason));
// @ts-expect-error: `mode` is `redirect` or `popup`
button.mode = 'sideways';
// @ts-expect-error: the button has no `secret`
button.secret = 'never in a page';
// @ts-expect-error: `mode` is `redirect` or `popup`
login({ clientId: 'id', redirectUri: '/callback.html', backend: '/auth/itch', mode: 'tab' });
// @ts-expect-error: the token endpoint's answer carries no itch.io token
show(answer.access_token);
// @ts-expect-error: a login gives the backend's `response`, never the token
login({ clientId: 'id', redirectUri: '/callback.html', backend: '/auth/itch', mode: 'popup' }).then((result) => show(result.token));
