import 'itch-oauth-widget/define';

const me = document.getElementById('me');
const show = (user) => (me.textContent = `Signed in as ${user.username}`);

for (const button of document.querySelectorAll('itch-login-button')) {
  button.clientId = ITCH.clientId;
  button.baseUrl = ITCH.baseUrl;
  button.redirectUri = `${location.origin}/callback.html`;
}
// Redirect mode comes back here with the session cookie; popup mode answers in itch-login-success.
fetch('/me').then((answer) => answer.ok && answer.json().then(show));
document.addEventListener('itch-login-success', (event) => show(event.detail.response.user));
document.addEventListener('itch-login-error', (event) => (me.textContent = `Login failed: ${event.detail.code}`));
