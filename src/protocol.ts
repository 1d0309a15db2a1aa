/**
 * `itch-oauth-widget/protocol`: the building blocks under `login()` and the elements, for an app
 * that draws the whole login itself: the authorize URL, the state and its flow record, the
 * callback fragment, scopes, return-to paths, and the steps of a login. Framework-free; importing
 * it registers nothing. What most apps call (`login`, the elements, `ItchOAuthError`) is in the
 * package's root entry.
 * @see https://itch.io/docs/api/oauth
 * @module
 */
export {
  ITCH_SCOPES,
  DEFAULT_SCOPE,
  parseScopes,
  isKnownScope,
  scopeIncludes,
  satisfies,
  missingScopes,
  assertRequestScopes,
  type ItchScope,
} from './core/scopes.js';
export {
  DEFAULT_BASE_URL,
  OOB_REDIRECT_URI,
  buildAuthorizeUrl,
  assertBaseUrl,
  assertRedirectUri,
  type AuthorizeUrlOptions,
} from './core/authorize-url.js';
export {
  STATE_LIFETIME_MS,
  STATE_KEY_PREFIX,
  createState,
  saveFlow,
  consumeFlow,
  takeFlow,
  pruneExpired,
  type FlowRecord,
  type StateStorage,
  type StateProblem,
} from './core/state.js';
export {
  MAX_FRAGMENT_LENGTH,
  isCallbackFragment,
  parseCallbackFragment,
  readCallbackFragment,
  type CallbackResponse,
  type CallbackParams,
  type FragmentProblem,
  FRAGMENT_PROBLEMS,
} from './core/fragment.js';
export { assertReturnTo, safeReturnTo, isSafeReturnTo } from './core/return-to.js';
export { preparePopupLogin, checkLoginOptions, isFramed, type LoginHooks, type LoginHandle } from './core/login.js';
export { startLogin } from './ui/login.js';
