// Vue 3 typings of <itch-login-button> and <itch-oauth-callback> for vue-tsc (written by hand, after
// Vue's guide "Using Custom Elements in Vue" / TypeScript: no maintained generator passes vue-tsc 3).
// Load once, e.g. in src/env.d.ts:   import type {} from 'itch-oauth-widget/vue';
// and tell Vue's compiler they are custom elements (vite.config.ts):
//   vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('itch-') } } })
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type {
  ItchLoginButton,
  ItchLoginErrorDetail,
  ItchLoginStartDetail,
  ItchLoginSuccessDetail,
  ItchOAuthCallback,
} from '../dist/index.js';

/** The events of a custom element, by name: what `DefineCustomElement` types `$emit` from. */
type EventMap = { [event: string]: Event };

/** A custom element as Vue's template type checker sees it: its props and its events. */
export type DefineCustomElement<
  Element extends HTMLElement,
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- no events unless given
  Events extends EventMap = {},
  Props extends keyof Element = never,
> = new () => Element & {
  /** @deprecated For template type checking only. */
  $props: HTMLAttributes & Partial<Pick<Element, Props>> & PublicProps;
  /** @deprecated For template type checking only. */
  $emit: EmitFn<{ [K in keyof Events]: (event: Events[K]) => void }>;
};

/** A widget event whose `currentTarget` is the element. */
export type ItchEvent<Element extends HTMLElement, Detail> = CustomEvent<Detail> & { currentTarget: Element };

/** `<itch-login-button>` in Vue templates: its props and its three events. */
export type ItchLoginButtonElement = DefineCustomElement<
  ItchLoginButton,
  {
    'itch-login-start': ItchEvent<ItchLoginButton, ItchLoginStartDetail>;
    'itch-login-success': ItchEvent<ItchLoginButton, ItchLoginSuccessDetail>;
    'itch-login-error': ItchEvent<ItchLoginButton, ItchLoginErrorDetail>;
  },
  'clientId' | 'redirectUri' | 'scope' | 'baseUrl' | 'mode' | 'returnTo' | 'disabled' | Extract<'backend', keyof ItchLoginButton>
>;

/** `<itch-oauth-callback>` in Vue templates: its props and its two events. */
export type ItchOAuthCallbackElement = DefineCustomElement<
  ItchOAuthCallback,
  {
    'itch-login-success': ItchEvent<ItchOAuthCallback, ItchLoginSuccessDetail>;
    'itch-login-error': ItchEvent<ItchOAuthCallback, ItchLoginErrorDetail>;
  },
  'noRedirect' | 'storeUrl'
>;

declare module 'vue' {
  interface GlobalComponents {
    'itch-login-button': ItchLoginButtonElement;
    'itch-oauth-callback': ItchOAuthCallbackElement;
  }
}
