import 'itch-oauth-widget/define';
import { ItchOAuthError, login, type LoginAnswer } from 'itch-oauth-widget';
import type {} from 'itch-oauth-widget/jsx';
import { useState } from 'react';

export function Login({ clientId, itchUrl }: { clientId: string; itchUrl: string }) {
  const [user, setUser] = useState('');
  const [error, setError] = useState('');
  const redirectUri = `${location.origin}/callback.html`;
  // The game's own button: login() opens the itch.io popup in the click (before any await) and
  // resolves with the backend's answer.
  async function play() {
    try {
      const result = await login({ clientId, redirectUri, baseUrl: itchUrl, backend: '/auth/itch', mode: 'popup' });
      setUser((result.response as LoginAnswer).user.username);
    } catch (failure) {
      setError(failure instanceof ItchOAuthError ? `${failure.code}: ${failure.message}` : String(failure));
    }
  }
  return (
    <main>
      <h1>React game</h1>
      {/* No `mode`: redirect on a top-level page, popup (collected from `backend`) in a frame. */}
      <itch-login-button
        client-id={clientId}
        redirect-uri={redirectUri}
        base-url={itchUrl}
        scope="profile:me"
        backend="/auth/itch"
        onitch-login-start={(event) => console.log('going to', event.detail.url)}
        onitch-login-success={(event) => setUser((event.detail.response as LoginAnswer).user.username)}
        onitch-login-error={(event) => setError(`${event.detail.code}: ${event.detail.message}`)}
      >
        Log in with itch.io
      </itch-login-button>
      <button type="button" onClick={play}>
        Play
      </button>
      {user && <p>Signed in as {user}</p>}
      {error && <p role="alert">{error}</p>}
    </main>
  );
}
