// The game's page: the login button. The itch.io address comes from the query (?itch=…) so the
// end-to-end test can point it at the emulator; a real app writes its values in.
import 'itch-oauth-widget/define';
import { createApp } from 'vue';
import Login from './Login.vue';

const query = new URLSearchParams(location.search);
createApp(Login, { clientId: query.get('client') ?? 'YOUR_CLIENT_ID', itchUrl: query.get('itch') ?? 'https://itch.io' }).mount('#app');
