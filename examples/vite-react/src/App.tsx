import 'itch-oauth-widget/define'; // registers <itch-login-button> and <itch-oauth-callback>
import { playerMessage, type LoginAnswer } from 'itch-oauth-widget';
import type {} from 'itch-oauth-widget/jsx'; // types both tags in JSX
import { useEffect, useState } from 'react';

export function App() {
  const [user, setUser] = useState<string>();
  const [error, setError] = useState('');
  // The session, if there is one: /me answers the user from the session cookie.
  useEffect(() => {
    fetch('/me').then(async (answer) => answer.ok && setUser((await answer.json()).username));
  }, []);
  async function logout() {
    await fetch('/logout', { method: 'POST' });
    setUser(undefined);
  }

  if (user)
    return (
      <main>
        <p>Signed in as {user}</p>
        <button type="button" onClick={logout}>
          Log out
        </button>
      </main>
    );
  return (
    <main>
      <h1>Starfall</h1>
      <itch-login-button
        client-id={import.meta.env.ITCH_CLIENT_ID}
        base-url={import.meta.env.ITCH_BASE_URL}
        redirect-uri={`${location.origin}/callback.html`}
        backend="/auth/itch"
        onitch-login-success={(event) => setUser((event.detail.response as LoginAnswer).user.username)}
        // The player's words for what happened (event.detail.message is the developer's, for logs).
        onitch-login-error={async (event) => setError(await playerMessage(event.detail.code))}
      >
        Log in with itch.io
      </itch-login-button>
      {error && <p role="alert">{error}</p>}
    </main>
  );
}
