// Mistakes the types must reject: each @ts-expect-error fails the check if its line compiles.
import { login } from 'itch-oauth-widget';
import type {} from 'itch-oauth-widget/jsx';

export const mistakes = (
  <>
    {/* @ts-expect-error: the success detail has `response`, never the token */}
    <itch-oauth-callback onitch-login-success={(event) => event.detail.access_token} />
    {/* @ts-expect-error: the error detail has `code` and `message`, not `reason` */}
    <itch-oauth-callback onitch-login-error={(event) => event.detail.reason} />
    {/* @ts-expect-error: `secret` is not an attribute of the button (TypeScript never checks names with a dash in JSX) */}
    <itch-login-button client-id="id" secret="never in a page" />
    {/* @ts-expect-error: `mode` is `redirect` or `popup` */}
    <itch-login-button client-id="id" mode="sideways" />
  </>
);

export async function loginMistakes(clientId: string) {
  // @ts-expect-error: `mode` is `redirect` or `popup`
  await login({ clientId, redirectUri: '/callback.html', backend: '/auth/itch', mode: 'tab' });
  const result = await login({ clientId, redirectUri: '/callback.html', backend: '/auth/itch', mode: 'popup' });
  // @ts-expect-error: a login gives the backend's `response`, never the token
  return result.token;
}
