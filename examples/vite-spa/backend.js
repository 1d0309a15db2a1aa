// The token handler and a session: app(request) answers /auth/itch and /me.
import { randomUUID } from 'node:crypto';
import { createTokenHandler } from 'itch-oauth-widget/server';

export function createBackend({ baseUrl, applicationId }) {
  const sessions = new Map(); // session id → itch.io user: yours to keep (a database, a signed cookie…)
  const handleToken = createTokenHandler({
    applicationId, // refuses tokens itch.io issued to another application
    baseUrl,
    apiBaseUrl: baseUrl === 'https://itch.io' ? 'https://api.itch.io' : `${baseUrl}/api`,
    popup: true, // the login button's mode="popup"
    onLogin: ({ user, request }) => {
      const sid = randomUUID();
      sessions.set(sid, user);
      const secure = request.url.startsWith('https:') ? '; Secure' : '';
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
