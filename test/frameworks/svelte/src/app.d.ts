// The widget's element typings for svelte-check (svelte/elements).
import type {} from 'itch-oauth-widget/svelte';
