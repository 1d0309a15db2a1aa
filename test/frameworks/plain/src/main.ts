// Plain TypeScript (and what Angular's strict templates read): HTMLElementTagNameMap and the
// global event map entries that come with the package's main types.
import 'itch-oauth-widget/define';

declare function show(response: unknown): void;

const button = document.querySelector('itch-login-button')!; // ItchLoginButton
button.addEventListener('itch-login-start', (event) => console.log(event.detail.url));
document.addEventListener('itch-login-success', (event) => show(event.detail.response));
button.mode = 'redirect';

// Mistakes the types must reject:
// @ts-expect-error: the success detail has `response`, never the token
document.addEventListener('itch-login-success', (event) => show(event.detail.access_token));
// @ts-expect-error: the error detail has `code` and `message`, not `reason`
button.addEventListener('itch-login-error', (event) => show(event.detail.reason));
// @ts-expect-error: `mode` is `redirect` or `popup`
button.mode = 'sideways';
// @ts-expect-error: the button has no `secret`
button.secret = 'never in a page';
