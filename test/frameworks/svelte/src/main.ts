import 'itch-oauth-widget/define';
import { mount } from 'svelte';
import Login from './Login.svelte';

const query = new URLSearchParams(location.search);
mount(Login, {
  target: document.getElementById('app')!,
  props: { clientId: query.get('client') ?? 'YOUR_CLIENT_ID', itchUrl: query.get('itch') ?? 'https://itch.io' },
});
