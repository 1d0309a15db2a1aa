import 'itch-oauth-widget/define';
import type { LoginAnswer } from 'itch-oauth-widget';
import type {} from 'itch-oauth-widget/jsx';
import { useState } from 'react';

export function Callback() {
  const [user, setUser] = useState('');
  const [error, setError] = useState('');
  return (
    <main>
      <itch-oauth-callback
        no-redirect
        onitch-login-success={(event) => setUser((event.detail.response as LoginAnswer).user.username)}
        onitch-login-error={(event) => setError(`${event.detail.code}: ${event.detail.message}`)}
      ></itch-oauth-callback>
      {user && <p>Signed in as {user}</p>}
      {error && <p role="alert">{error}</p>}
    </main>
  );
}
