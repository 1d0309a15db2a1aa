// `npm run soak`: the server under faults and a flood, for about two minutes, with its figures
// written to bench/soak-results.md (beside the bench's results.md). Not part of `npm test`.
//
// Two server instances (bench/soak-instance.ts: createTokenHandler with the popup relay on and
// createSessions, both with `store` on one real Redis, Debian's redis-server started here on a
// free port and stopped after) behind a round-robin balancer; itch.io is the emulator behind a
// fault proxy that, while the faults last, answers a share of calls 5xx and delays another share.
// Mid-run Redis is stopped for 5 s and started again, and one instance is restarted. Simulated
// browsers (fetch with a cookie jar each, one itch.io user each) log in by redirect (POST of the
// token) and by popup (the start page, the bind with the opener's binding, the deposit with the
// binding cookie, the opener's collections with its verifier), call the game's API with their
// game token, renew it and log out; a flooder sends bogus tokens, forged binds and random
// collections meanwhile.
//
// It asserts: no login is delivered to a browser that did not start it; no session or game token
// answers a refused token; no session logged out (204) is readable once Redis is back; no
// unhandled rejection in any process; every failure an honest browser meets is a documented one
// (a code of the package's ERROR_CODES, 401 for a route without a session, 503 with Retry-After
// while the store is down, or the connection to an instance being restarted); memory after a full
// GC within SOAK_MEMORY_MB of the start; honest players' success rate during the flood; success
// back to 100 % soon after the faults end. The flooder's figures are in FLOOD_EXPECTATIONS.
//
// SOAK_SCALE (default 1) stretches every phase, SOAK_PLAYERS (default 24) sets the browsers,
// SOAK_REDIS_PERSIST=0 runs Redis without persistence (its restart then undoes the logouts).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES } from '../src/core/errors.js';
import { popupBindingOf, popupStateOfBinding } from '../src/core/state.js';
import { DEFAULT_SEED, DEFAULT_SEED_CREDENTIALS as C, startEmulator } from '../src/emulator/index.js';
import { freePort } from '../test/e2e/support/free-port.js';

const SCALE = Number(process.env['SOAK_SCALE'] ?? 1);
const PLAYERS = Number(process.env['SOAK_PLAYERS'] ?? 24);
const MEMORY_MB = Number(process.env['SOAK_MEMORY_MB'] ?? 25);
/** The run's timeline, in ms from its start. */
const T = {
  faultsFrom: 15_000 * SCALE,
  redisDown: 35_000 * SCALE,
  redisDownFor: 5_000,
  restart: 55_000 * SCALE,
  faultsUntil: 75_000 * SCALE,
  end: 105_000 * SCALE,
};
/** While the faults last: the share of itch.io calls answered 5xx, and the share delayed. */
const ITCH_FAULTS = { failing: 0.15, slow: 0.15, slowMs: 1500 };
/**
 * What the flood must show. `limiter: 'required'` asserts the flooder met 429s (with
 * Retry-After); `'reported'` only says whether it did. Honest browsers must
 * not pay for the flood: during it, every honest journey succeeds but for those an injected
 * fault failed (itch.io's 5xx, Redis down, the restart), which would include a 429.
 */
const FLOOD_EXPECTATIONS: { limiter: 'reported' | 'required' } = { limiter: 'required' };
/** Success must be back to 100 % this soon after the faults end. */
const RECOVERY_MAX_MS = 15_000;

const SITE = 'https://site.soak.example';
const GAME = 'https://game.soak.example';
const SECRET = randomBytes(32).toString('base64url');
const root = fileURLToPath(new URL('..', import.meta.url));
const log = (message: string) => process.stderr.write(`[soak ${((Date.now() - began) / 1000).toFixed(1)} s] ${message}\n`);
let began = Date.now();

let soakUnhandled = 0;
process.on('unhandledRejection', (error) => {
  soakUnhandled++;
  log(`UNHANDLED in the soak: ${String(error)}`);
});

// --- itch.io: the emulator, one user per browser, behind the fault proxy -------------------------

const PLAYER_IDS = Array.from({ length: PLAYERS }, (_, i) => 500_001 + i);
const emulator = await startEmulator({
  data: { ...DEFAULT_SEED, users: [...DEFAULT_SEED.users, ...PLAYER_IDS.map((id) => ({ id, username: `soak-${id}` }))] },
});
let faultsOn = false;
const itchCalls = { total: 0, failed: 0, slowed: 0 };
const proxy = createServer((request: IncomingMessage, response: ServerResponse) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    itchCalls.total++;
    const roll = Math.random();
    if (faultsOn && roll < ITCH_FAULTS.failing) {
      itchCalls.failed++;
      response.writeHead([500, 502, 503][itchCalls.failed % 3]!, { 'Content-Type': 'text/html' }).end('<h1>itch.io is having trouble</h1>');
      return;
    }
    if (faultsOn && roll < ITCH_FAULTS.failing + ITCH_FAULTS.slow) {
      itchCalls.slowed++;
      await new Promise((resolve) => setTimeout(resolve, ITCH_FAULTS.slowMs));
    }
    try {
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
      ) as Record<string, string>;
      const answer = await fetch(`${emulator.url}${request.url}`, {
        method: request.method ?? 'GET',
        headers,
        body: chunks.length ? Buffer.concat(chunks) : null,
        redirect: 'manual',
      });
      const body = Buffer.from(await answer.arrayBuffer());
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)) out[name] = value;
      });
      response.writeHead(answer.status, out).end(body);
    } catch {
      response.writeHead(502).end();
    }
  });
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const itchUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;

// --- Redis and the two instances -----------------------------------------------------------------

const redisPort = await freePort();
// Its data in a folder of its own, kept across its restart (append-only file, written on every
// write and on shutdown), as a Redis that holds revocations must be: SOAK_REDIS_PERSIST=0 runs it
// keeping nothing, and then every logout made before the restart is undone.
const PERSIST = process.env['SOAK_REDIS_PERSIST'] !== '0';
const redisDir = mkdtempSync(path.join(tmpdir(), 'itch-soak-redis-'));
let redis: ChildProcess | undefined;
async function startRedis(): Promise<void> {
  const persistence = PERSIST ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const child = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--dir', redisDir, ...persistence],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`redis-server could not start (apt-get install redis-server): ${error.message}`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Ready to accept connections') && resolve());
  });
  redis = child;
}
async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

interface Instance {
  url: string;
  port: number;
  process?: ChildProcess;
  /** Whether the balancer sends it requests. */
  up: boolean;
  /** When it was taken out and put back (a request to it in between may fail to connect). */
  downSince?: number;
  downUntil?: number;
}
const unhandledLines: string[] = [];
async function startInstance(instance: Instance): Promise<void> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(new URL('./soak-instance.ts', import.meta.url))], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(instance.port),
      REDIS_PORT: String(redisPort),
      SESSION_SECRET: SECRET,
      SITE,
      GAME,
      APPLICATION_ID: String(C.clients.demo.id),
      CLIENT_ID: C.clients.demo.clientId,
      ITCH_URL: itchUrl,
      ITCH_API_URL: `${itchUrl}/api`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.startsWith('UNHANDLED')) unhandledLines.push(line);
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`an instance exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => /listening \d+/.test(chunk.toString()) && resolve());
  });
  instance.process = child;
  instance.up = true;
}
async function newInstance(): Promise<Instance> {
  const port = await freePort();
  const instance: Instance = { url: `http://127.0.0.1:${port}`, port, up: false };
  await startInstance(instance);
  return instance;
}

// --- The browsers ---------------------------------------------------------------------------------

interface Answer {
  status: number;
  body: Record<string, unknown> | null;
  headers: Headers;
  /** For status 0: the network error. */
  error?: string;
  instance: number;
  /** When it was sent and when its answer (or error) came, in ms from the run's start. */
  at: number;
  until: number;
}

let turn = 0;
/** The balancer: round robin over the instances that are up. */
function pick(): number {
  const up = instances.flatMap((instance, i) => (instance.up ? [i] : []));
  return up[turn++ % up.length]!;
}

class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly name: string,
    readonly origin: string,
  ) {}

  async call(
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string>; url?: string } = {},
  ): Promise<Answer> {
    const instance = pick();
    const at = Date.now() - began;
    const headers: Record<string, string> = {
      Origin: this.origin,
      'Sec-Fetch-Site': this.origin === SITE ? 'same-origin' : 'cross-site',
      // The client address the rate limits will key on (see soak-instance.ts).
      'X-Soak-Client': this.name,
      ...init.headers,
    };
    if (this.cookies.size) headers['Cookie'] = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const answer = await fetch(`${instances[instance]!.url}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers,
        body: init.body === undefined ? null : JSON.stringify(init.body),
        signal: AbortSignal.timeout(15_000),
      });
      for (const cookie of answer.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
        if (value === '' || /;\s*Max-Age=0/i.test(cookie)) this.cookies.delete(name);
        else this.cookies.set(name, value);
      }
      const text = await answer.text();
      let body: Record<string, unknown> | null = null;
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      } catch {
        body = null;
      }
      return { status: answer.status, body, headers: answer.headers, instance, at, until: Date.now() - began };
    } catch (error) {
      const until = Date.now() - began;
      return { status: 0, body: null, headers: new Headers(), error: String((error as Error).cause ?? error), instance, at, until };
    }
  }
}

// --- What is recorded ------------------------------------------------------------------------------

interface Journey {
  kind: 'redirect login' | 'popup login' | 'logout';
  player: number;
  started: number;
  ended: number;
  ok: boolean;
  /** How it failed: a documented failure's name, or `UNDOCUMENTED …`. */
  failure?: string;
  /** The injected fault it failed by, if it did: anything else is the server's own failure. */
  cause?: Cause | undefined;
}
type Cause = 'itch.io faults' | 'Redis down' | 'restart';
/** When the faults really began and ended, in ms from the run's start. */
const faultTimes = { itchOn: Infinity, itchOff: Infinity, redisDown: Infinity, redisUp: Infinity };
const journeys: Journey[] = [];
const violations: string[] = [];
/** Sessions logged out with a 204: none may be readable once Redis is back. */
const revoked: { cookie?: string; gameToken?: string; player: number }[] = [];
const refusedTokens = { sent: 0, answeredWithSession: 0 };

/** The injected fault a failed answer comes from, by when it was sent and answered. */
function causeOf(answer: Answer): Cause | undefined {
  if (answer.status === 0) {
    const instance = instances[answer.instance]!;
    // Sent before it was taken out and cut by its stop, or sent on a connection it had just closed.
    const restarting =
      instance.downSince !== undefined && answer.until >= instance.downSince && answer.at <= (instance.downUntil ?? Infinity) + 1000;
    return restarting ? 'restart' : undefined;
  }
  // (The store's client reconnects within a second of Redis coming back.)
  if (answer.status === 503 && answer.until >= faultTimes.redisDown && answer.at <= faultTimes.redisUp + 2000) return 'Redis down';
  if (answer.status === 502 && answer.until >= faultTimes.itchOn && answer.at <= faultTimes.itchOff + ITCH_FAULTS.slowMs)
    return 'itch.io faults';
  return undefined;
}

/** A failed answer, named: documented ones by code or by their route's documented status. */
function failureOf(answer: Answer, what: string): string {
  if (answer.status === 0)
    return causeOf(answer) === 'restart' ? `${what}: network_error (instance restarting)` : `UNDOCUMENTED ${what}: ${answer.error}`;
  const code = answer.body?.['code'];
  if (typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code)) return `${what}: ${answer.status} ${code}`;
  if (answer.status === 401) return `${what}: 401 (no session)`;
  if (answer.status === 503 && answer.headers.get('retry-after')) return `${what}: 503 Retry-After (store unavailable)`;
  // The token endpoint when itch.io fails (the browser reports service_unavailable).
  if (answer.status === 502 && /^itch\.io could not/.test(String((answer.body?.['errors'] as string[] | undefined)?.[0])))
    return `${what}: 502 (itch.io failing)`;
  return `UNDOCUMENTED ${what}: ${answer.status} ${JSON.stringify(answer.body)}`;
}

class Failed extends Error {
  constructor(
    message: string,
    readonly fault?: Cause | undefined,
  ) {
    super(message);
  }
}
function expectOk(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Failed(failureOf(answer, what), causeOf(answer));
  return answer;
}
function expectUser(id: unknown, player: number, what: string): void {
  if (id !== player) violations.push(`${what}: player ${player} was answered user ${String(id)}`);
}

const tokens = new Map(
  PLAYER_IDS.map((id) => [id, emulator.issueToken({ userId: id, clientId: C.clients.demo.clientId, scopes: 'profile:me' })]),
);

async function journey(kind: Journey['kind'], player: number, run: () => Promise<void>): Promise<void> {
  const started = Date.now() - began;
  try {
    await run();
    journeys.push({ kind, player, started, ended: Date.now() - began, ok: true });
  } catch (error) {
    const failure = error instanceof Failed ? error.message : `UNDOCUMENTED ${kind}: ${String(error)}`;
    const cause = error instanceof Failed ? error.fault : undefined;
    journeys.push({ kind, player, started, ended: Date.now() - began, ok: false, failure, cause });
  }
}

/** A site page's login: the token POSTed, the cookie read back on the other instance. */
async function redirectLogin(player: number): Promise<Browser> {
  const browser = new Browser(`player-${player}`, SITE);
  const login = expectOk(await browser.call('/auth/itch', { body: { access_token: tokens.get(player) } }), 200, 'login');
  expectUser((login.body?.['user'] as { id?: unknown })?.id, player, 'redirect login');
  const me = expectOk(await browser.call('/me'), 200, '/me');
  expectUser(me.body?.['id'], player, '/me');
  return browser;
}

/** A framed game's popup login, with the real verifier and binding; then its API calls and a renewal. */
async function popupLogin(player: number): Promise<string> {
  const game = new Browser(`player-${player}`, GAME);
  const popup = new Browser(`player-${player}`, SITE);
  const verifier = randomBytes(32).toString('base64url');
  const binding = await popupBindingOf(verifier);
  const state = await popupStateOfBinding(binding);
  const query = new URLSearchParams({
    client_id: C.clients.demo.clientId,
    redirect_uri: `${SITE}/callback.html`,
    scope: 'profile:me',
    state,
  });
  const start = `/auth/itch?${query}`;
  expectOk(await popup.call(start, { headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Dest': 'document' } }), 200, 'start page');
  expectOk(await popup.call(start, { body: { popup_bind: state, opener: GAME, binding } }), 200, 'bind');
  expectOk(await popup.call('/auth/itch', { body: { access_token: tokens.get(player), state } }), 202, 'deposit');
  let collected: Answer | undefined;
  for (let asked = 0; asked < 20 && collected === undefined; asked++) {
    const answer = await game.call('/auth/itch', { body: { popup_verifier: verifier } });
    if (answer.status === 200) collected = answer;
    else if (answer.status !== 202) throw new Failed(failureOf(answer, 'collect'), causeOf(answer));
    else await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (collected === undefined) throw new Failed('UNDOCUMENTED collect: still pending after 20 collections');
  expectUser((collected.body?.['user'] as { id?: unknown })?.id, player, 'popup login');
  let gameToken = collected.body?.['gameToken'];
  if (typeof gameToken !== 'string') throw new Failed(`UNDOCUMENTED collect: no game token in ${JSON.stringify(collected.body)}`);
  // The game's API (DPoP proofs go here once game tokens are bound).
  const bearer = () => ({ Authorization: `Bearer ${gameToken as string}` });
  expectUser(expectOk(await game.call('/api/progress', { headers: bearer() }), 200, 'API read').body?.['user'], player, 'API read');
  expectOk(await game.call('/api/progress', { method: 'PUT', headers: bearer() }), 200, 'API save');
  gameToken = expectOk(await game.call('/api/renew', { method: 'POST', headers: bearer() }), 200, 'renew').body?.['gameToken'];
  expectUser(
    expectOk(await game.call('/api/progress', { headers: bearer() }), 200, 'API read').body?.['user'],
    player,
    'API read after renewal',
  );
  return gameToken as string;
}

/** A login, then a logout (by cookie, or by game token): a 204 revokes the session everywhere. */
async function logout(player: number, byGameToken: boolean): Promise<void> {
  if (byGameToken) {
    const gameToken = await popupLogin(player);
    const game = new Browser(`player-${player}`, GAME);
    expectOk(await game.call('/logout', { method: 'POST', headers: { Authorization: `Bearer ${gameToken}` } }), 204, 'logout');
    revoked.push({ gameToken, player });
    const after = await game.call('/api/progress', { headers: { Authorization: `Bearer ${gameToken}` } });
    if (after.status === 200) violations.push(`player ${player}: a game token read the API after its logout (204)`);
    return;
  }
  const browser = await redirectLogin(player);
  const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  expectOk(await browser.call('/logout', { method: 'POST' }), 204, 'logout');
  revoked.push({ cookie, player });
  const after = await new Browser(`player-${player}`, SITE).call('/me', { headers: { Cookie: cookie } });
  if (after.status === 200) violations.push(`player ${player}: a cookie read /me after its logout (204)`);
}

/** An honest player's own refused token (one itch.io does not know): no session, no game token. */
async function refusedLogin(player: number): Promise<void> {
  for (const origin of [SITE, GAME]) {
    const browser = new Browser(`player-${player}`, origin);
    refusedTokens.sent++;
    const answer = await browser.call('/auth/itch', { body: { access_token: randomBytes(20).toString('hex') } });
    if (answer.status === 200 || browser.cookies.size > 0 || answer.body?.['gameToken'] !== undefined) {
      refusedTokens.answeredWithSession++;
      violations.push(
        `a refused token got ${answer.status} ${JSON.stringify(answer.body)} with cookies ${[...browser.cookies.keys()].join(', ')}`,
      );
    }
  }
}

let running = true;
async function player(id: number, index: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, (index * 1000) / PLAYERS));
  for (let round = index; running; round++) {
    const pick = round % 5;
    if (pick === 0 || pick === 3) await journey('redirect login', id, () => redirectLogin(id).then(() => undefined));
    else if (pick === 1) await journey('popup login', id, () => popupLogin(id).then(() => undefined));
    else await journey('logout', id, () => logout(id, pick === 4));
    if (round % 7 === 0) await refusedLogin(id);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// --- The flooder -----------------------------------------------------------------------------------

const flood = { sent: 0, statuses: new Map<number, number>(), withRetryAfter: 0, sessions: 0, startedAt: 0, endedAt: 0 };
let flooding = false;
async function flooder(): Promise<void> {
  const site = new Browser('flooder', SITE);
  const game = new Browser('flooder', GAME);
  const one = async (i: number): Promise<void> => {
    let answer: Answer;
    if (i % 3 === 0) answer = await site.call('/auth/itch', { body: { access_token: randomBytes(20).toString('hex') } });
    else if (i % 3 === 1) answer = await game.call('/auth/itch', { body: { popup_verifier: randomBytes(32).toString('base64url') } });
    else {
      const state = await popupStateOfBinding(randomBytes(32).toString('base64url'));
      const query = new URLSearchParams({
        client_id: C.clients.demo.clientId,
        redirect_uri: `${SITE}/callback.html`,
        scope: 'profile:me',
        state,
      });
      answer = await site.call(`/auth/itch?${query}`, {
        body: { popup_bind: state, opener: GAME, binding: randomBytes(32).toString('base64url') },
      });
    }
    flood.sent++;
    flood.statuses.set(answer.status, (flood.statuses.get(answer.status) ?? 0) + 1);
    if (answer.status === 429 && answer.headers.get('retry-after')) flood.withRetryAfter++;
    if (
      answer.status === 200 ||
      answer.body?.['gameToken'] !== undefined ||
      site.cookies.has('itch-session') ||
      site.cookies.has('__Host-itch-session')
    ) {
      flood.sessions++;
      violations.push(`the flooder got a login: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
  };
  flood.startedAt = Date.now() - began;
  await Promise.all(
    Array.from({ length: 12 }, async (_, lane) => {
      for (let i = lane; flooding; i += 12) await one(i);
    }),
  );
  flood.endedAt = Date.now() - began;
}

// --- The run ---------------------------------------------------------------------------------------

interface Stats {
  pid: number;
  unhandled: number;
  heapUsed: number;
  rss: number;
}
async function statsOf(instance: Instance): Promise<Stats> {
  return (await (await fetch(`${instance.url}/soak/stats`)).json()) as Stats;
}
const mb = (bytes: number) => bytes / 2 ** 20;
const at = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, began + ms - Date.now())));

await startRedis();
const instances: Instance[] = [await newInstance(), await newInstance()];
log(`redis on ${redisPort}, instances on ${instances.map((instance) => instance.port).join(' and ')}, itch.io proxy ${itchUrl}`);
began = Date.now();
const players = PLAYER_IDS.map((id, index) => player(id, index));
const restartedUnhandled: number[] = [];
let memoryAtStart: Stats[] = [];

const timeline = (async () => {
  await at(T.faultsFrom - 2000);
  memoryAtStart = await Promise.all(instances.map(statsOf));
  await at(T.faultsFrom);
  log('faults on: itch.io fails or waits for a share of calls; the flooder starts');
  faultsOn = true;
  faultTimes.itchOn = Date.now() - began;
  flooding = true;
  const flooded = flooder();
  await at(T.redisDown);
  log('Redis stopped');
  faultTimes.redisDown = Date.now() - began;
  await stopProcess(redis);
  await new Promise((resolve) => setTimeout(resolve, T.redisDownFor));
  await startRedis();
  faultTimes.redisUp = Date.now() - began;
  log(`Redis started again (${PERSIST ? 'with its data' : 'empty: it kept nothing'})`);
  await at(T.restart);
  const restarting = instances[1]!;
  log('instance 2 restarting');
  restarting.up = false;
  restarting.downSince = Date.now() - began;
  restartedUnhandled.push((await statsOf(restarting)).unhandled);
  await stopProcess(restarting.process);
  await startInstance(restarting);
  restarting.downUntil = Date.now() - began;
  log(`instance 2 back after ${restarting.downUntil - restarting.downSince} ms`);
  await at(T.faultsUntil);
  faultsOn = false;
  faultTimes.itchOff = Date.now() - began;
  flooding = false;
  await flooded;
  log('faults off, flood over');
  await at(T.end);
  running = false;
})();

await timeline;
await Promise.all(players);
log('load over: checking the logged-out sessions on both instances, then memory');

// Every session logged out (204) is refused on both instances, Redis having come back.
let readableRevoked = 0;
for (const { cookie, gameToken, player } of revoked) {
  for (const instance of instances) {
    const answer = await fetch(`${instance.url}${cookie ? '/me' : '/api/progress'}`, {
      headers: cookie ? { Cookie: cookie, Origin: SITE } : { Authorization: `Bearer ${gameToken}`, Origin: GAME },
    });
    if (answer.status !== 401) {
      readableRevoked++;
      violations.push(`player ${player}: a logged-out session answered ${answer.status} on ${instance.url} after Redis came back`);
    }
  }
}
await new Promise((resolve) => setTimeout(resolve, 1000));
const memoryAtEnd = await Promise.all(instances.map(statsOf));
const unhandled =
  soakUnhandled + memoryAtEnd.reduce((sum, stats) => sum + stats.unhandled, 0) + restartedUnhandled.reduce((a, b) => a + b, 0);

await Promise.all(instances.map((instance) => stopProcess(instance.process)));
await stopProcess(redis);
rmSync(redisDir, { recursive: true, force: true });
await emulator.close();
proxy.close();

// --- Figures -------------------------------------------------------------------------------------

const during = (journey: Journey, from: number, until: number) => journey.started >= from && journey.started < until;
const rate = (list: Journey[]) => (list.length === 0 ? NaN : list.filter((j) => j.ok).length / list.length);
const pct = (value: number) => (Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(1)} %`);
const phases = [
  ['before the faults (started)', 0, T.faultsFrom],
  ['faults and flood (all of it)', T.faultsFrom, T.faultsUntil],
  ['  of which Redis down (5 s)', T.redisDown, T.redisDown + T.redisDownFor],
  ['after the faults', T.faultsUntil, T.end],
] as const;
// Recovery: the first moment after the faults from which every journey started succeeded.
const after = journeys.filter((j) => j.started >= T.faultsUntil).sort((a, b) => a.started - b.started);
const lastFailure = after.filter((j) => !j.ok).at(-1);
const recoveredAt = lastFailure === undefined ? T.faultsUntil : (after.find((j) => j.started > lastFailure.started)?.started ?? Infinity);
const recoveryMs = recoveredAt - T.faultsUntil;
const failures = new Map<string, number>();
for (const j of journeys) {
  const key = `${j.failure} | ${j.cause ?? 'none'}`;
  if (!j.ok) failures.set(key, (failures.get(key) ?? 0) + 1);
}
const undocumented = [...failures].filter(([name]) => name.startsWith('UNDOCUMENTED'));
const duringFlood = journeys.filter((j) => during(j, T.faultsFrom, T.faultsUntil));
const honestDuringFlood = rate(duringFlood);
/** Honest journeys the flood itself (or anything but an injected fault) failed. */
const failedByNoFault = duringFlood.filter((j) => !j.ok && j.cause === undefined);
const unfaulted = duringFlood.filter((j) => j.ok || j.cause === undefined);
const limiterPresent = (flood.statuses.get(429) ?? 0) > 0;
const memoryGrowth = memoryAtEnd.map((end, i) => mb(end.heapUsed - memoryAtStart[i]!.heapUsed));

const lines = [
  '# Soak under faults',
  '',
  'Written by `npm run soak` (bench/soak.ts); not part of `npm test`.',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0]?.model.trim()} (${cpus().length} cores), Node ${process.version}: ` +
    `two instances (createTokenHandler with the popup relay, createSessions) sharing one redis-server, ${PLAYERS} browsers (one itch.io user each) and one flooder, ` +
    `${Math.round(T.end / 1000)} s. Faults from ${T.faultsFrom / 1000} s to ${T.faultsUntil / 1000} s: itch.io answers ${ITCH_FAULTS.failing * 100} % of calls 5xx and delays ` +
    `${ITCH_FAULTS.slow * 100} % by ${ITCH_FAULTS.slowMs / 1000} s (${itchCalls.failed} failed and ${itchCalls.slowed} delayed of ${itchCalls.total} calls); Redis stopped at ` +
    `${T.redisDown / 1000} s for ${T.redisDownFor / 1000} s; instance 2 restarted at ${T.restart / 1000} s; the flood over the same span.`,
  '',
  '### Honest browsers (journeys: redirect login and /me; popup login, API, renewal; login and logout)',
  '',
  '| phase | journeys | succeeded |',
  '|---|---:|---:|',
  ...phases.map(([name, from, until]) => {
    const list = journeys.filter((j) => during(j, from, until));
    return `| ${name} | ${list.length} | ${pct(rate(list))} |`;
  }),
  '',
  `Back to 100 % success: ${Number.isFinite(recoveryMs) ? `${(recoveryMs / 1000).toFixed(1)} s after the faults ended` : 'never'} (every journey started from then on succeeded).`,
  '',
  '| failure met by honest browsers | by the injected fault | count |',
  '|---|---|---:|',
  ...[...failures].sort((a, b) => b[1] - a[1]).map(([name, count]) => `| ${name} | ${count} |`),
  '',
  '### The flooder (bogus tokens, random collections, forged binds; one client)',
  '',
  `${flood.sent} requests in ${((flood.endedAt - flood.startedAt) / 1000).toFixed(0)} s: ` +
    [...flood.statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([status, count]) => `${count} × ${status || 'network error'}`)
      .join(', ') +
    `. ${limiterPresent ? `Rate limited: ${flood.statuses.get(429)} answered 429 (${flood.withRetryAfter} with Retry-After).` : 'No rate limiter present: no request was answered 429.'}`,
  '',
  '### Properties',
  '',
  '| what | result |',
  '|---|---|',
  `| logins delivered to a browser that did not start them | ${violations.filter((v) => /was answered user/.test(v)).length} |`,
  `| refused tokens answered with a session or game token | ${refusedTokens.answeredWithSession} of ${refusedTokens.sent} (and ${flood.sessions} of the flooder's) |`,
  `| logged-out sessions readable after Redis came back (both instances) | ${readableRevoked} of ${revoked.length * 2} reads |`,
  `| unhandled rejections (both instances, the restarted one's first life, the soak) | ${unhandled} |`,
  `| undocumented failures | ${undocumented.reduce((sum, [, count]) => sum + count, 0)} |`,
  `| heap after a full GC, end minus start | ${memoryGrowth.map((growth, i) => `instance ${i + 1}: ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB`).join(', ')} (RSS at the end: ${memoryAtEnd.map((s) => `${mb(s.rss).toFixed(0)} MB`).join(', ')}) |`,
  `| honest success during the flood | ${pct(honestDuringFlood)} of ${duringFlood.length} journeys; without those an injected fault failed: ${pct(rate(unfaulted))} of ${unfaulted.length} |`,
  '',
];
const report = lines.join('\n');
writeFileSync(new URL('./soak-results.md', import.meta.url), report);
process.stdout.write(report);

// --- Assertions ------------------------------------------------------------------------------------

const problems: string[] = [];
if (violations.length) problems.push(`${violations.length} violations:\n  ${[...new Set(violations)].slice(0, 20).join('\n  ')}`);
if (unhandled) problems.push(`${unhandled} unhandled rejections:\n  ${unhandledLines.slice(0, 5).join('\n  ')}`);
if (undocumented.length) problems.push(`undocumented failures: ${undocumented.map(([name, count]) => `${count} × ${name}`).join('; ')}`);
if (memoryGrowth.some((growth) => growth > MEMORY_MB))
  problems.push(`heap grew more than ${MEMORY_MB} MB: ${memoryGrowth.map((g) => g.toFixed(1)).join(', ')}`);
if (rate(journeys.filter((j) => j.ended < T.faultsFrom)) !== 1) problems.push('not every journey that ended before the faults succeeded');
if (failedByNoFault.length)
  problems.push(
    `${failedByNoFault.length} honest journeys during the flood failed by no injected fault: ${failedByNoFault.map((j) => `${j.failure} (${(j.started / 1000).toFixed(1)}–${(j.ended / 1000).toFixed(1)} s)`).join('; ')}`,
  );
if (!(recoveryMs <= RECOVERY_MAX_MS)) problems.push(`success not back to 100 % within ${RECOVERY_MAX_MS / 1000} s of the faults' end`);
if (FLOOD_EXPECTATIONS.limiter === 'required' && !limiterPresent) problems.push('the flooder was never answered 429');
if (revoked.length === 0) problems.push('no logout succeeded: the revocation check checked nothing');
if (problems.length) {
  process.stderr.write(`\nsoak FAILED:\n- ${problems.join('\n- ')}\n`);
  process.exit(1);
}
process.stderr.write('\nsoak passed\n');
process.exit(0);
