import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'itch-oauth-widget/define';

/* global ITCH_BASE_URL */
function App() {
  const [user, setUser] = useState(undefined);
  useEffect(() => {
    fetch('/me')
      .then((answer) => (answer.ok ? answer.json() : null))
      .then(setUser);
  }, []);
  const status = user === undefined ? 'Loading…' : user === null ? 'Not signed in.' : `Signed in as ${user.username}`;
  return (
    <main>
      <h1>React app</h1>
      <p>{status}</p>
      <itch-login-button
        client-id="emu-starfall-companion"
        redirect-uri={`${location.origin}/callback.html`}
        base-url={ITCH_BASE_URL}
      ></itch-login-button>
    </main>
  );
}

createRoot(document.getElementById('root')).render(<App />);
