// The widget's element typings for vue-tsc (GlobalComponents).
import type {} from 'itch-oauth-widget/vue';
