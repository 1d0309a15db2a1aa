// The callback page: <itch-oauth-callback> shows the outcome; its events (they bubble to the
// document) let the rest of the page follow along. This module runs before the one that defines
// the elements: <itch-oauth-callback> announces the outcome as soon as it is defined once the
// document is parsed, before any later module script could listen.
const title = document.querySelector<HTMLElement>('#callback-title')!;

document.addEventListener('itch-login-error', (event) => {
  title.textContent = event.detail.code === 'access_denied' ? 'Login cancelled' : 'The login did not go through';
});
document.addEventListener('itch-login-success', () => {
  title.textContent = 'Welcome to the keep';
});
