/**
 * `itch-oauth-widget/protocol`: the building blocks under `login()` and the elements, for an app
 * that draws the whole login itself: the authorize URL, the state and its flow record, the
 * callback fragment, scopes, return-to paths, and the steps of a login. Framework-free; importing
 * it registers nothing. What most apps call (`login`, the elements, `ItchOAuthError`) is in the
 * package's root entry.
 * @see https://itch.io/docs/api/oauth
 * @module
 */
export { ITCH_SCOPES, parseScopes, isKnownScope, scopeIncludes, satisfies, missingScopes, type ItchScope } from './core/scopes.js';
export { OOB_REDIRECT_URI, buildAuthorizeUrl, type AuthorizeUrlOptions } from './core/authorize-url.js';
export { STATE_LIFETIME_MS, createState, saveFlow, consumeFlow, pruneExpired, type FlowRecord, type StateStorage } from './core/state.js';
export { isCallbackFragment, parseCallbackFragment, type CallbackResponse } from './core/fragment.js';
export { assertReturnTo, safeReturnTo, isSafeReturnTo } from './core/return-to.js';
export { startLogin, preparePopupLogin, type LoginHooks, type LoginHandle } from './core/login.js';
