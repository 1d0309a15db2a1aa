// oidc-client-ts on the game's page: the minimal login. It has no implicit flow (authorization
// code with PKCE only), so it is measured for size alone.
import { UserManager } from 'oidc-client-ts';

const manager = new UserManager({
  authority: 'https://itch.io',
  client_id: 'bench-client',
  redirect_uri: `${location.origin}/callback.html`,
  scope: 'profile:me',
});
document.querySelector('#login')?.addEventListener('click', () => void manager.signinRedirect());
