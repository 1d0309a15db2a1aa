// What the README's snippets leave to the reader, or bring in from an earlier snippet: declared
// here so that scripts/check-readme.mjs type-checks each snippet as written.
type ItchServer = typeof import('itch-oauth-widget/server');

/**
 * The script-tag file's global (dist/itch-oauth.iife.js), as an engine's plain JavaScript uses it:
 * the options are checked, the backend's answer is whatever your backend sends.
 */
declare const ItchOAuth: {
  // The snippets read the token endpoint's answer as the reader's own server shapes it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  login(options: import('itch-oauth-widget').LoginOptions): Promise<{ response: any }>;
  playerMessage: typeof import('itch-oauth-widget').playerMessage;
};
declare const createTokenHandler: ItchServer['createTokenHandler'];
declare const createItchClient: ItchServer['createItchClient'];
declare const createSessions: ItchServer['createSessions'];
declare const sessions: import('itch-oauth-widget/server').Sessions;
declare const request: Request;
declare const onLogin: import('itch-oauth-widget/server').TokenHandlerOptions['onLogin'];

// Yours to write.
declare function servePage(request: Request): Response | Promise<Response>;
declare function show(response: unknown): void;
declare function showError(text: string): void;
declare function askUserToPasteKey(url: string): Promise<string>;
declare const cancelButton: AbortController;
declare const play: HTMLButtonElement;
declare const clientId: string;
declare const redirectUri: string;
declare const accessToken: string;
/** @vitejs/plugin-vue's plugin, as far as the Vue snippet uses it. */
declare function vue(options: { template: { compilerOptions: { isCustomElement: (tag: string) => boolean } } }): unknown;
