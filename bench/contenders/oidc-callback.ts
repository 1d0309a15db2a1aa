// oidc-client-ts on the redirect URI page: the minimal callback, the user's token sent to the
// app's backend.
import { UserManager } from 'oidc-client-ts';

const manager = new UserManager({
  authority: 'https://itch.io',
  client_id: 'bench-client',
  redirect_uri: `${location.origin}/callback.html`,
  scope: 'profile:me',
});
void manager.signinRedirectCallback().then((user) =>
  fetch('/auth/itch', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ access_token: user.access_token }),
  }),
);
