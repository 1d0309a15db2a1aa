// A popup login's secrets as the opener makes them, and the popup's start page, for tests that
// drive the token handler's popup relay with plain Requests.
import { randomBytes } from 'node:crypto';
import { popupBindingOf, popupStateOfBinding } from '../../../src/core/state.js';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../../src/emulator/index.js';

/** The verifier the opener keeps, the binding the popup's browser is bound by, and the state sent to itch.io. */
export interface PopupSecrets {
  verifier: string;
  binding: string;
  state: string;
}

/** A fresh popup login's secrets, made as the package's opener makes them. */
export async function popupSecrets(): Promise<PopupSecrets> {
  const verifier = randomBytes(32).toString('base64url');
  const binding = await popupBindingOf(verifier);
  return { verifier, binding, state: await popupStateOfBinding(binding) };
}

/** The popup's start page for `state`: the demo client's authorization request, on `app`'s backend (/auth/itch). */
export function popupStartUrl(app: string, state: string): string {
  const query = new URLSearchParams({
    client_id: C.clients.demo.clientId,
    redirect_uri: `${app}/callback.html`,
    scope: 'profile:me',
    state,
  });
  return `${app}/auth/itch?${query}`;
}
