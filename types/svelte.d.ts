// Svelte 5 typings of <itch-login-button> and <itch-oauth-callback> (written by hand: no maintained
// generator passes svelte-check 4). Load once, e.g. in src/app.d.ts:
//   import type {} from 'itch-oauth-widget/svelte';
// Attributes are the elements' HTML attributes; events use Svelte 5's `on<event>` attributes:
//   <itch-oauth-callback onitch-login-success={(e) => show(e.detail.response)}></itch-oauth-callback>
import type { HTMLAttributes } from 'svelte/elements';
import type {
  ItchLoginButton,
  ItchLoginErrorDetail,
  ItchLoginStartDetail,
  ItchLoginSuccessDetail,
  ItchOAuthCallback,
} from '../dist/index.js';

/** A handler of one of the widget's events, with `detail` and the element typed. */
export type ItchEventHandler<Element extends HTMLElement, Detail> = (event: CustomEvent<Detail> & { currentTarget: Element }) => void;

/** `<itch-login-button>` in Svelte markup: its attributes and its three events. */
export interface ItchLoginButtonAttributes extends HTMLAttributes<ItchLoginButton> {
  /** Client ID of the itch.io OAuth application. Required. */
  'client-id'?: string | null | undefined;
  /** The redirect URI registered for that application, exactly. Required. */
  'redirect-uri'?: string | null | undefined;
  /** Space-separated itch.io scopes. Default `profile:me`. */
  scope?: string | null | undefined;
  /** Origin of the authorization server. Default `https://itch.io`. */
  'base-url'?: string | null | undefined;
  /** `redirect` or `popup`. */
  mode?: 'redirect' | 'popup' | null | undefined;
  /** Same-origin path+query the callback sends the user back to. Default: the current path+query. */
  'return-to'?: string | null | undefined;
  /** Disables the button. */
  disabled?: boolean | null | undefined;
  /** URL of the app's token endpoint (popup mode). */
  backend?: string | null | undefined;
  /** Clicked, before navigating or opening the popup; cancelable. */
  'onitch-login-start'?: ItchEventHandler<ItchLoginButton, ItchLoginStartDetail> | null | undefined;
  /** Popup mode: the backend accepted the token. */
  'onitch-login-success'?: ItchEventHandler<ItchLoginButton, ItchLoginSuccessDetail> | null | undefined;
  /** The flow failed or the configuration is invalid. */
  'onitch-login-error'?: ItchEventHandler<ItchLoginButton, ItchLoginErrorDetail> | null | undefined;
}

/** `<itch-oauth-callback>` in Svelte markup: its attributes and its two events. */
export interface ItchOAuthCallbackAttributes extends HTMLAttributes<ItchOAuthCallback> {
  /** Stay on the callback page after a successful login. */
  'no-redirect'?: boolean | null | undefined;
  /** The game's store page, linked after a `not_owner` refusal. */
  'store-url'?: string | null | undefined;
  /** The backend accepted the token: `detail.response` is its JSON answer. */
  'onitch-login-success'?: ItchEventHandler<ItchOAuthCallback, ItchLoginSuccessDetail> | null | undefined;
  /** The login failed: `detail.code` and `detail.message`. */
  'onitch-login-error'?: ItchEventHandler<ItchOAuthCallback, ItchLoginErrorDetail> | null | undefined;
}

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'itch-login-button': ItchLoginButtonAttributes;
    'itch-oauth-callback': ItchOAuthCallbackAttributes;
  }
}
