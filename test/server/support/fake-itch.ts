// A stand-in for itch.io's credentials/info and profile, as the token handler asks them: one
// token it knows, issued to application 42 with `profile:me`, for `user`.
import type { FetchFunction } from '../../../src/server/index.js';

export function fakeItch(token: string, user: object): FetchFunction {
  return async (url, init) => {
    if (new Headers(init.headers).get('authorization') !== `Bearer ${token}`)
      return Response.json({ errors: ['invalid key'] }, { status: 401 });
    if (url.endsWith('/credentials/info')) return Response.json({ type: 'key', scopes: ['profile:me'], oauth_application_id: 42 });
    if (url.endsWith('/profile')) return Response.json({ user });
    return Response.json({ errors: ['invalid api endpoint'] }, { status: 404 });
  };
}
