// The game's page: the login button. The itch.io address comes from the query (?itch=…) so the
// end-to-end test can point it at the emulator; a real app writes its values in.
import { createRoot } from 'react-dom/client';
import { Login } from './Login.js';

const query = new URLSearchParams(location.search);
createRoot(document.getElementById('root')!).render(
  <Login clientId={query.get('client') ?? 'YOUR_CLIENT_ID'} itchUrl={query.get('itch') ?? 'https://itch.io'} />,
);
