// The token handler and the session: app(request) answers /auth/itch, /me and /logout.
// publicOrigin is where people reach the site (e.g. https://your.site): the handler accepts its
// Origin, and a login started from an https origin gets a Secure __Host- cookie, though behind a
// proxy that ends TLS the request itself is plain http. sessionSecret encrypts the session
// cookies (createSessions, no database): the same on every instance, and sessions outlive restarts.
import { createSessions, createTokenHandler } from 'itch-oauth-widget/server';

export function createBackend({ baseUrl, clientId, applicationId, publicOrigin, sessionSecret }) {
  const sessions = createSessions({ secrets: [sessionSecret], origin: publicOrigin });
  const handleToken = createTokenHandler({
    applicationId, // refuses tokens itch.io issued to another application
    baseUrl,
    apiBaseUrl: baseUrl === 'https://itch.io' ? 'https://api.itch.io' : `${baseUrl}/api`,
    origin: publicOrigin, // this site, as browsers see it: never taken from the request's Host
    popup: true, // the login button's mode="popup"
    clientId, // the popup start page starts logins of this application only,
    redirectUri: `${publicOrigin}/callback.html`, // and sends itch.io this callback page only
    onLogin: sessions.onLogin, // the session cookie (HttpOnly, SameSite=Lax)
  });
  return {
    async app(request) {
      const { pathname } = new URL(request.url);
      if (pathname === '/auth/itch') return handleToken(request);
      // POST from the site's own pages: 204, the cookie removed; from another site, refused (403).
      if (pathname === '/logout') return sessions.logout(request);
      const session = await sessions.get(request); // /me
      return session ? Response.json(session.user) : new Response(null, { status: 401 });
    },
  };
}
