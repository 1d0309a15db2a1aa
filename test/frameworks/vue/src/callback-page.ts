import 'itch-oauth-widget/define';
import { createApp } from 'vue';
import Callback from './Callback.vue';

createApp(Callback).mount('#app');
