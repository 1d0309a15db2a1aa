// The token handler and a session: app(request) answers /auth/itch and /me. publicOrigin is where
// people reach the site (e.g. https://your.site): the cookie's Secure comes from it, never from the
// scheme of the request (behind a proxy that ends TLS, the request is plain http).
import { randomUUID } from 'node:crypto';
import { createTokenHandler } from 'itch-oauth-widget/server';

export function createBackend({ baseUrl, applicationId, publicOrigin }) {
  const sessions = new Map(); // session id → itch.io user: yours to keep (a database, a signed cookie…)
  const secure = new URL(publicOrigin).protocol === 'https:' ? '; Secure' : '';
  const handleToken = createTokenHandler({
    applicationId, // refuses tokens itch.io issued to another application
    baseUrl,
    apiBaseUrl: baseUrl === 'https://itch.io' ? 'https://api.itch.io' : `${baseUrl}/api`,
    allowedOrigins: [publicOrigin], // the Origin browsers send when a proxy changes the host or scheme
    popup: true, // the login button's mode="popup"
    onLogin: ({ user }) => {
      const sid = randomUUID();
      sessions.set(sid, user);
      return { headers: { 'Set-Cookie': `sid=${sid}; HttpOnly; SameSite=Lax; Path=/${secure}` } };
    },
  });
  return {
    async app(request) {
      if (new URL(request.url).pathname === '/auth/itch') return handleToken(request);
      const user = sessions.get(request.headers.get('cookie')?.match(/(?:^|;\s*)sid=([^;]+)/)?.[1]);
      return user ? Response.json(user) : new Response(null, { status: 401 });
    },
  };
}
