// How much createSessions costs per request: cookie reads (JWE dir+A256GCM decryption), game token
// reads (Ed25519 verification; bound to a key, with the ES256 verification of its DPoP proof) and
// logins (encryption or signing), beside a Map lookup, the cost of a server-side session table. One process, one operation at a time (one core): part of
// `npm run bench` (bench/run.ts), or alone with `npx tsx bench/sessions.ts`.
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createSessions, type LoginContext } from '../src/server/index.js';
import { dpopKey, dpopProof, siteNonce, type DpopKey } from '../test/support/dpop.js';
import { quantile } from './stats.js';

const SITE = 'https://game.example';
const GAME = 'https://html-classic.itch.zone';
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 2);

export interface SessionsRow {
  name: string;
  /** Operations per second, one at a time. */
  rate: number;
  p50Us: number;
  p99Us: number;
}

const user = {
  id: 1,
  username: 'leafo',
  url: 'https://leafo.itch.io',
  display_name: 'leaf',
  gamer: true,
  developer: true,
  press_user: false,
  cover_url: 'https://img.itch.zone/aW1nLzEyMzQ1Njc4OTAucG5n/100x100%23/abcdef.png',
};

/** Every figure of createSessions, measured in this process one after the other. */
export async function measureSessions(): Promise<{ rows: SessionsRow[]; cookieBytes: number; gameTokenBytes: number }> {
  const secrets = ['bench secret of at least thirty-two characters'];
  // Unbound game tokens (Bearer) as before DPoP, under 'optional'; bound ones under the default.
  const sessions = createSessions({ secrets, allowedOrigins: [GAME], origin: SITE, dpop: 'optional' });
  const bound = createSessions({ secrets, allowedOrigins: [GAME], origin: SITE });
  const context = (startedFrom: string | null, dpop?: string): LoginContext => ({
    user,
    scopes: ['profile:me'],
    token: 'ItchAccessToken0123456789abcdefghijklmno',
    owns: { 2001: true },
    request: new Request(`${SITE}/auth/itch`, { method: 'POST', headers: dpop === undefined ? {} : { DPoP: dpop } }),
    startedFrom,
  });
  // A game's DPoP key (ES256), and proofs by it, as gameSession() sends them.
  const game = await dpopKey();

  const cookieLogin = (await sessions.onLogin(context(SITE))) as { headers: Record<string, string> };
  const cookie = cookieLogin.headers['Set-Cookie']!.split(';')[0]!;
  const gameToken = ((await ((await sessions.onLogin(context(GAME))) as Response).json()) as { gameToken: string }).gameToken;
  const cookieRequest = new Request(`${SITE}/api/me`, { headers: { Cookie: cookie } });
  const gameRequest = new Request(`${SITE}/api/me`, { headers: { Authorization: `Bearer ${gameToken}` } });
  // 6,000 distinct logins, read in turn: more than the 5,000 values an instance keeps verified, so
  // every read of them decrypts or verifies (a cold read, as for a user's first request to an instance).
  const DISTINCT = 6000;
  const cookieRequests: Request[] = [];
  const gameRequests: Request[] = [];
  for (let i = 0; i < DISTINCT; i++) {
    const { headers } = (await sessions.onLogin(context(SITE))) as { headers: Record<string, string> };
    cookieRequests.push(new Request(`${SITE}/api/me`, { headers: { Cookie: headers['Set-Cookie']!.split(';')[0]! } }));
    const { gameToken: token } = (await ((await sessions.onLogin(context(GAME))) as Response).json()) as { gameToken: string };
    gameRequests.push(new Request(`${SITE}/api/me`, { headers: { Authorization: `Bearer ${token}` } }));
  }
  // Bound tokens: each read carries a proof of its own (a proof counts once), made beforehand (the
  // game's cost, not the server's): more than the reads that the measurement makes. One game's
  // reads (its token kept verified, its key known to the server); and the DISTINCT logins' reads in
  // turn, each by its own player's key: a cold token and a key the server no longer keeps imported
  // (it keeps 1,000), the worst case.
  const BOUND_READS = Number(process.env['BENCH_BOUND_READS'] ?? 30_000);
  // The site's DPoP nonce (RFC 9449 section 9) of this minute, as its answers give it: good for this minute and the next.
  const nonce = await siteNonce(secrets[0]);
  const boundToken = (
    (await ((await bound.onLogin(context(GAME, await dpopProof(game, 'POST', `${SITE}/auth/itch`)))) as Response).json()) as {
      gameToken: string;
    }
  ).gameToken;
  const sameBound: Request[] = [];
  for (let i = 0; i < BOUND_READS; i++) {
    const headers = {
      Authorization: `DPoP ${boundToken}`,
      DPoP: await dpopProof(game, 'GET', `${SITE}/api/me`, { token: boundToken, nonce }),
    };
    sameBound.push(new Request(`${SITE}/api/me`, { headers }));
  }
  const players: { token: string; key: DpopKey }[] = [];
  for (let i = 0; i < DISTINCT; i++) {
    const key = await dpopKey();
    const answer = (await bound.onLogin(context(GAME, await dpopProof(key, 'POST', `${SITE}/auth/itch`)))) as Response;
    players.push({ token: ((await answer.json()) as { gameToken: string }).gameToken, key });
  }
  const boundRequests: Request[] = [];
  for (let i = 0; i < BOUND_READS; i++) {
    const { token, key } = players[i % DISTINCT]!;
    boundRequests.push(
      new Request(`${SITE}/api/me`, {
        headers: {
          Authorization: `DPoP ${token}`,
          DPoP: await dpopProof(key, 'GET', `${SITE}/api/me`, { token, nonce }),
        },
      }),
    );
  }
  let turn = 0;
  const table = new Map<string, unknown>([[cookie, { user }]]);

  const rows: SessionsRow[] = [];
  /** Runs `operation` one at a time for SECONDS: operations per second and the p50/p99 latency in µs. */
  async function measure(name: string, operation: () => unknown, max = Infinity): Promise<void> {
    for (let i = 0; i < 500; i++) await operation(); // warm-up
    const latencies: number[] = [];
    const end = performance.now() + SECONDS * 1000;
    let start = performance.now();
    const first = start;
    while (start < end && latencies.length < max - 500) {
      await operation();
      const now = performance.now();
      latencies.push((now - start) * 1000);
      start = now;
    }
    rows.push({
      name,
      rate: latencies.length / ((start - first) / 1000),
      p50Us: quantile(latencies, 0.5),
      p99Us: quantile(latencies, 0.99),
    });
  }

  await measure('Map lookup (server-side table)', () => table.get(cookie));
  await measure('get: cookie, same value (cached)', async () => {
    if ((await sessions.get(cookieRequest)) === undefined) throw new Error('no session');
  });
  await measure('get: cookie, cold (JWE A256GCM)', async () => {
    if ((await sessions.get(cookieRequests[turn++ % DISTINCT]!)) === undefined) throw new Error('no session');
  });
  await measure('get: game token, same (cached)', async () => {
    if ((await sessions.get(gameRequest, { allow: ['game'] })) === undefined) throw new Error('no session');
  });
  await measure('get: game token, cold (EdDSA)', async () => {
    if ((await sessions.get(gameRequests[turn++ % DISTINCT]!, { allow: ['game'] })) === undefined) throw new Error('no session');
  });
  let sameTurn = 0;
  await measure(
    'get: bound game token + DPoP proof, same (key known)',
    async () => {
      if ((await bound.get(sameBound[sameTurn++]!, { allow: ['game'] })) === undefined) throw new Error('no session');
    },
    BOUND_READS,
  );
  let boundTurn = 0;
  await measure(
    'get: bound game token + DPoP proof, cold (EdDSA + ES256)',
    async () => {
      if ((await bound.get(boundRequests[boundTurn++]!, { allow: ['game'] })) === undefined) throw new Error('no session');
    },
    BOUND_READS,
  );
  await measure('onLogin: site cookie', () => sessions.onLogin(context(SITE)));
  await measure('onLogin: game token', () => sessions.onLogin(context(GAME)));
  return { rows, cookieBytes: cookie.length, gameTokenBytes: gameToken.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { rows, cookieBytes, gameTokenBytes } = await measureSessions();
  console.log(
    `Node ${process.version}, load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}, cookie ${cookieBytes} bytes, game token ${gameTokenBytes} bytes\n`,
  );
  for (const { name, rate, p50Us, p99Us } of rows) {
    console.log(
      `${name.padEnd(56)} ${Math.round(rate).toLocaleString('en').padStart(11)}/s   p50 ${p50Us.toFixed(1).padStart(6)} µs   p99 ${p99Us.toFixed(1).padStart(6)} µs`,
    );
  }
}
