import 'itch-oauth-widget/define';
import type {} from 'itch-oauth-widget/jsx';
import { useState } from 'react';

export function Login({ clientId, itchUrl }: { clientId: string; itchUrl: string }) {
  const [error, setError] = useState('');
  return (
    <main>
      <h1>React game</h1>
      <itch-login-button
        client-id={clientId}
        redirect-uri={`${location.origin}/callback.html`}
        base-url={itchUrl}
        scope="profile:me"
        mode="redirect"
        onitch-login-start={(event) => console.log('going to', event.detail.url)}
        onitch-login-error={(event) => setError(`${event.detail.code}: ${event.detail.message}`)}
      >
        Log in with itch.io
      </itch-login-button>
      {error && <p role="alert">{error}</p>}
    </main>
  );
}
