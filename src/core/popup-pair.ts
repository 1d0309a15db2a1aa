/*
 * The popup login's pair (verifier, binding, state), made ahead of the click: the click must
 * open the popup without awaiting anything, and SHA-256 is async in Web Crypto.
 */
import { ItchOAuthError } from './errors.js';
import { createState, sha256Base64url } from './state.js';

export interface PopupPair {
  /** 256 random bits, base64url: the proof that collects the outcome. Only in this memory. */
  verifier: string;
  /**
   * base64url(SHA-256(verifier)): handed to the popup's start page only, which has the token endpoint
   * set it as the browser's binding cookie. It proves where the login started; it cannot collect it.
   */
  binding: string;
  /** `p.` + base64url(SHA-256(binding)): sent to itch.io and back, and by the popup to the token endpoint. */
  state: string;
}

let readyPair: PopupPair | undefined;
let makingPair: Promise<void> | undefined;

/**
 * Makes the next popup pair ahead of the click, so that the click opens the popup without
 * awaiting anything (SHA-256 is async in Web Crypto). Called by the button when it connects and
 * after every use; harmless to call again.
 * @group Steps of a login
 */
export function preparePopupLogin(): Promise<void> {
  if (readyPair !== undefined) return Promise.resolve();
  makingPair ??= makePair().then(
    (pair) => {
      readyPair = pair;
      makingPair = undefined;
    },
    () => {
      makingPair = undefined;
    },
  );
  return makingPair;
}

/** A pair made now, for a click that came before one was ready. */
export async function makePair(): Promise<PopupPair> {
  const verifier = createState();
  if (crypto.subtle === undefined) {
    throw new ItchOAuthError('config_invalid', 'popup mode needs a secure context (https, or http on localhost)');
  }
  // popupBindingOf and popupStateOfBinding of state.ts, written out: the script-tag files then
  // carry no wrappers (test/core/popup-pair.test.ts holds the two equal).
  const binding = await sha256Base64url(verifier);
  return { verifier, binding, state: `p.${await sha256Base64url(binding)}` };
}

/** The ready pair, if any, and a new one on its way. */
export function takePair(): PopupPair | undefined {
  const pair = readyPair;
  readyPair = undefined;
  void preparePopupLogin();
  return pair;
}
