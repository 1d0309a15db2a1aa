import 'itch-oauth-widget/define';

const me = document.getElementById('me');
const logout = document.getElementById('logout');
const show = (user) => {
  me.textContent = `Signed in as ${user.username}`;
  logout.hidden = false;
};

for (const button of document.querySelectorAll('itch-login-button')) {
  button.clientId = ITCH.clientId;
  button.baseUrl = ITCH.baseUrl;
  button.redirectUri = `${location.origin}/callback.html`;
}
// Redirect mode comes back here with the session cookie; popup mode answers in itch-login-success.
fetch('/me').then((answer) => answer.ok && answer.json().then(show));
document.addEventListener('itch-login-success', (event) => show(event.detail.response.user));
document.addEventListener('itch-login-error', (event) => (me.textContent = `Login failed: ${event.detail.code}`));
// A POST from this page (same-origin): the server refuses one that another site sends.
logout.addEventListener('click', async () => {
  if (!(await fetch('/logout', { method: 'POST' })).ok) return;
  me.textContent = 'Not signed in.';
  logout.hidden = true;
});
