/*
 * The four requests of a popup login, as the token handler serves them on the token endpoint URL,
 * each step in a file named for it:
 *
 * 1. `start.ts`: the popup's first page (`GET {backend}?state=p.…`).
 * 2. `bind.ts`: that page binds the login to this browser (the binding cookie), once its opener
 *    proved it started it, or the person confirmed a code.
 * 3. `deposit.ts`: the callback page's capture deposits the token; checked with itch.io, the login
 *    waits in the relay (`relay.ts`).
 * 4. `hand-over.ts`: the login is handed to the page that opened the popup, at its collection.
 *
 * What they share is in `step-context.ts`.
 */
import { bind } from './bind.js';
import { deposit } from './deposit.js';
import { handOver } from './hand-over.js';
import { start } from './start.js';
import { stepContext, type BindRequest, type PopupRoutesOptions } from './step-context.js';

/** The handler's popup requests (see the top of this file). */
export function popupRoutes(options: PopupRoutesOptions) {
  const context = stepContext(options);
  return {
    start: (request: Request, own: string): Promise<Response> => start(context, request, own),
    bind: (request: Request, own: string, body: BindRequest): Promise<Response> => bind(context, request, own, body),
    deposit: (request: Request, own: string, token: string, state: string): Promise<Response> =>
      deposit(context, request, own, token, state),
    handOver: (request: Request, verifier: string, seen = ''): Promise<Response> => handOver(context, request, verifier, seen),
  };
}
