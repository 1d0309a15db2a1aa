// Every step of a site's logins and API calls against the store of itch-oauth-widget/cloudflare
// on in-process Durable Objects (./durable-objects.ts), counting the requests each step makes to
// the objects and the rows they read: a redirect login, a popup login (start, bind, a pending
// collection, deposit, the delivered collection) for the site's cookie and for a game's token,
// an API call with each, a logout; and what anyone can send without an itch.io login.
// The modules are passed in, so that bench/durable-object-store.ts can count another version.
import { randomBytes } from 'node:crypto';
import type { Storage } from 'unstorage';
import { popupBindingOf, popupStateOfBinding } from '../../../src/core/state.js';
import { bindingCookie } from '../../../src/server/popup/binding-cookie.js';
import { DEFAULT_SEED_CREDENTIALS as C, type RunningEmulator } from '../../../src/emulator/index.js';
import { dpopKey, dpopProof, siteNonce } from '../../support/dpop.js';
import { memoryNamespace, type StoreClass } from './durable-objects.js';

export interface Modules {
  ItchOAuthStore: unknown;
  durableObjectStore(namespace: never): Storage;
  createTokenHandler(options: never): (request: Request) => Promise<Response>;
  createSessions(options: never): {
    onLogin: unknown;
    get(request: Request, options?: { allow?: string[] }): Promise<unknown>;
    logout(request: Request): Promise<Response>;
  };
}

/** What one step cost: requests to the objects, and rows their storage read. */
export interface Cost {
  requests: number;
  rowsRead: number;
  /** The requests for the popup relay's and the sessions' keys (not a rate limit's counters), each with its object and operation. */
  relay: { name: string; op: string; keys: string[] }[];
}

/** The popup relay's keys, the sessions' revocations and the DPoP proofs' `jti`s. */
const RELAY_OR_SESSION = /(?:^|:)(?:popup(?:-[a-z]+)?|itch-session:(?:revoked|dpop)):/;

const SITE = 'http://127.0.0.1:5173';
const GAME = 'http://localhost:8123';
/** The sessions' secret (its DPoP nonces are made with it). */
const SECRET = 'x'.repeat(32);

/** Runs every step once, in order, on a fresh namespace; the cost of each, by its name. */
export async function countLoginFlows(modules: Modules, emulator: RunningEmulator): Promise<Map<string, Cost>> {
  const namespace = memoryNamespace(modules.ItchOAuthStore as StoreClass);
  const store = modules.durableObjectStore(namespace as never);
  const sessions = modules.createSessions({ secrets: [SECRET], origin: SITE, allowedOrigins: [GAME], store } as never);
  const common = {
    applicationId: C.clients.demo.id,
    origin: SITE,
    baseUrl: emulator.url,
    apiBaseUrl: emulator.apiUrl,
    allowedOrigins: [GAME],
    popup: true,
    store,
    onLogin: sessions.onLogin,
  };
  const handler = modules.createTokenHandler(common as never);
  const confirming = modules.createTokenHandler({ ...common, popup: { severedOpener: 'confirm' } } as never);

  const costs = new Map<string, Cost>();
  /** Runs `step`, recording what it cost under `name`. */
  const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const [requests, rowsRead] = [namespace.requests.length, namespace.rowsRead()];
    const result = await run();
    const relay = namespace.requests
      .slice(requests)
      .map(({ name, operation }) => ({
        name,
        op: operation.op,
        keys: operation.keys ?? (operation.key === undefined ? [] : [operation.key]),
      }))
      .filter(({ keys }) => keys.some((key) => RELAY_OR_SESSION.test(key)));
    costs.set(name, { requests: namespace.requests.length - requests, rowsRead: namespace.rowsRead() - rowsRead, relay });
    return result;
  };
  const token = () => emulator.issueToken({ userId: C.users.gamer, clientId: C.clients.demo.clientId, scopes: 'profile:me' });
  const post = (body: unknown, origin: string, headers: Record<string, string> = {}, url = `${SITE}/auth/itch`) =>
    new Request(url, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: {
        'Content-Type': 'application/json',
        Origin: origin,
        'Sec-Fetch-Site': origin === SITE ? 'same-origin' : 'cross-site',
        ...headers,
      },
    });
  const pair = async () => {
    const verifier = randomBytes(32).toString('base64url');
    const binding = await popupBindingOf(verifier);
    return { verifier, binding, state: await popupStateOfBinding(binding) };
  };
  const startUrl = (state: string) =>
    `${SITE}/auth/itch?${new URLSearchParams({ client_id: C.clients.demo.clientId, redirect_uri: `${SITE}/callback.html`, scope: 'profile:me', state })}`;
  // The game's key: its proofs (RFC 9449) get its login a game token and use it, as gameSession() does.
  const key = await dpopKey();
  const must = async (answer: Response, status: number) => {
    if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${await answer.text()}`);
    return answer;
  };

  // A redirect login, and an API call with its cookie.
  const redirect = await step('redirect login', async () => must(await handler(post({ access_token: token() }, SITE)), 200));
  const cookie = redirect.headers.get('set-cookie')!.split(';')[0]!;
  await step('API call with the cookie', async () => {
    if ((await sessions.get(new Request(`${SITE}/me`, { headers: { Cookie: cookie } }))) === undefined) throw new Error('no session');
  });

  // A popup login from a framed game, every request of it, then an API call with its game token.
  const popupLogin = async (prefix: string, opener: string) => {
    const { verifier, binding, state } = await pair();
    await step(`${prefix}: start page`, async () =>
      must(await handler(new Request(startUrl(state), { headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Dest': 'document' } })), 200),
    );
    const bind = await step(`${prefix}: bind`, async () =>
      must(await handler(post({ popup_bind: state, opener, binding }, SITE, {}, startUrl(state))), 200),
    );
    const bound = bind.headers.get('set-cookie')!.split(';')[0]!;
    await step(`${prefix}: collection, pending`, async () => must(await handler(post({ popup_verifier: verifier }, opener)), 202));
    await step(`${prefix}: deposit`, async () => must(await handler(post({ access_token: token(), state }, SITE, { Cookie: bound })), 202));
    const dpop = await dpopProof(key, 'POST', `${SITE}/auth/itch`);
    return step(`${prefix}: collection, delivered`, async () =>
      must(await handler(post({ popup_verifier: verifier }, opener, { DPoP: dpop })), 200),
    );
  };
  await popupLogin('popup login (site)', SITE);
  const delivered = await popupLogin('popup login (game)', GAME);
  const { gameToken } = (await delivered.json()) as { gameToken: string };
  const dpop = await dpopProof(key, 'GET', `${SITE}/api/progress`, { token: gameToken, nonce: await siteNonce(SECRET) });
  await step('API call with the game token', async () => {
    const request = new Request(`${SITE}/api/progress`, { headers: { Authorization: `DPoP ${gameToken}`, DPoP: dpop, Origin: GAME } });
    if ((await sessions.get(request, { allow: ['game'] })) === undefined) throw new Error('no session');
  });
  await step('logout', async () => must(await sessions.logout(post({}, SITE, { Cookie: cookie }, `${SITE}/logout`)), 204));

  // What anyone can send, with no itch.io login.
  const stranger = await pair();
  await step('anonymous: collection of a verifier nobody bound', async () =>
    must(await handler(post({ popup_verifier: stranger.verifier }, SITE)), 202),
  );
  const own = await step('anonymous: bind of its own state', async () =>
    must(
      await handler(post({ popup_bind: stranger.state, opener: SITE, binding: stranger.binding }, SITE, {}, startUrl(stranger.state))),
      200,
    ),
  );
  const ownCookie = own.headers.get('set-cookie')!.split(';')[0]!;
  await step('anonymous: deposit without a binding cookie', async () =>
    must(await handler(post({ access_token: 'bogus', state: stranger.state }, SITE)), 403),
  );
  await step('anonymous: deposit of a bogus token with its own binding cookie', async () =>
    must(await handler(post({ access_token: 'bogus', state: stranger.state }, SITE, { Cookie: ownCookie })), 401),
  );
  const secret = randomBytes(32).toString('base64url');
  const planted = bindingCookie(stranger.state, { kind: 'code', secret }, false).split(';')[0]!;
  await step('anonymous: deposit with a planted code cookie', async () =>
    must(await handler(post({ access_token: 'bogus', state: stranger.state }, SITE, { Cookie: planted })), 403),
  );
  const confirm = await pair();
  await step('anonymous: start page asking for a code', async () =>
    must(await confirming(new Request(startUrl(confirm.state), { headers: { 'Sec-Fetch-Site': 'cross-site' } })), 200),
  );
  await step('anonymous: code confirmation', async () =>
    must(await confirming(post({ popup_bind: confirm.state, opener: null, confirmed: true }, SITE, {}, startUrl(confirm.state))), 200),
  );
  return costs;
}
