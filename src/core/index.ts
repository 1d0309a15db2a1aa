export { ERROR_CODES, ItchOAuthError, isErrorCode, type ItchOAuthErrorCode } from './errors.js';
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
} from './scopes.js';
export {
  DEFAULT_BASE_URL,
  OOB_REDIRECT_URI,
  buildAuthorizeUrl,
  assertBaseUrl,
  assertRedirectUri,
  type AuthorizeUrlOptions,
} from './authorize-url.js';
export {
  STATE_LIFETIME_MS,
  STATE_KEY_PREFIX,
  createState,
  saveFlow,
  consumeFlow,
  takeFlow,
  pruneExpired,
  type FlowMode,
  type FlowRecord,
  type StateStorage,
  type StateProblem,
} from './state.js';
export {
  MAX_FRAGMENT_LENGTH,
  isCallbackFragment,
  parseCallbackFragment,
  readCallbackFragment,
  type CallbackResponse,
  type CallbackParams,
  type FragmentProblem,
  FRAGMENT_PROBLEMS,
} from './fragment.js';
export { assertReturnTo, safeReturnTo, isSafeReturnTo } from './return-to.js';
export {
  login,
  startLogin,
  preparePopupLogin,
  checkLoginOptions,
  isFramed,
  type LoginOptions,
  type LoginResult,
  type LoginHooks,
  type LoginHandle,
} from './login.js';
