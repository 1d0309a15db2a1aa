// Logins through createTokenHandler at a fixed concurrency, against the emulator (another
// process), with the heap measured after full collections before and after. Run by
// bench/server.ts as `node --expose-gc --import tsx`; gets its work on IPC, answers once.
import type { LoginContext, OnLoginResult } from '../src/server/index.js';
import { DEFAULT_SEED_CREDENTIALS as C } from '../src/emulator/index.js';

interface Work {
  url: string;
  apiUrl: string;
  warmup: string[];
  measured: string[];
  concurrency: number;
  /** How long to idle before the last heap figure. */
  idleMs: number;
  /** Sessions from createSessions (an encrypted cookie per login) instead of a hand-written cookie. */
  sessions: boolean;
  /**
   * The server module to measure (default this tree's `src/server/index.ts`; bench/server-compare.ts
   * passes an older tree's too).
   */
  module?: string | undefined;
  /**
   * Each login from an address of its own (10,000 players who log in once), counted by the
   * per-client limits, with the ceiling of calls to itch.io raised above what the bench asks.
   */
  clientAddresses?: boolean | undefined;
}

export interface LoadResult {
  logins: number;
  failures: number;
  seconds: number;
  latenciesMs: number[];
  heapBefore: number;
  heapAfter: number;
  /** After the logins and `idleMs` doing nothing. */
  heapAfterIdle: number;
  /** Heap after the first half of the logins, after the second (growth that stays shows twice). */
  heapAfterHalf: number;
  /**
   * CPU time of this process (user + system) over the measured logins, in µs: the handler's own
   * work, which other processes on the machine slow down less than they do the wall clock.
   */
  cpuMicros: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

/** heapUsed after full collections, with turns of the event loop between them so that
 * finalizers (undici cleans up after requests with a FinalizationRegistry) run and their garbage
 * goes too. */
async function heapAfterGc(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc!();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return process.memoryUsage().heapUsed;
}

/** The cookie of a site that keeps its sessions itself: the login's cost without createSessions. */
const handWritten = ({ user }: LoginContext): OnLoginResult => ({
  headers: { 'Set-Cookie': `sid=${user.id}; HttpOnly; SameSite=Lax; Path=/` },
});

process.once('message', async (work: Work) => {
  const { createSessions, createTokenHandler } = (await import(
    work.module ?? '../src/server/index.js'
  )) as typeof import('../src/server/index.js');
  const origin = 'http://127.0.0.1:8080';
  /** The address each login comes from (the socket's, as an app passes it to `clientAddress`). */
  const addresses = new WeakMap<Request, string>();
  const handler = createTokenHandler({
    ...(work.clientAddresses
      ? { clientAddress: (request: Request) => addresses.get(request), rateLimit: { itchCallsPerSecond: 100_000 } }
      : {}),
    baseUrl: work.url,
    apiBaseUrl: work.apiUrl,
    applicationId: C.clients.demo.id,
    origin,
    onLogin: work.sessions ? createSessions({ secrets: ['bench secret of at least thirty-two characters'], origin }).onLogin : handWritten,
  });

  let failures = 0;
  let players = 0;
  const login = async (token: string) => {
    const request = new Request(`${origin}/auth/itch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify({ access_token: token }),
    });
    const player = players++;
    addresses.set(request, `10.${(player >> 16) & 255}.${(player >> 8) & 255}.${player & 255}`);
    const response = await handler(request);
    await response.arrayBuffer();
    if (response.status !== 200) failures++;
  };

  /** Runs every token through the handler, `concurrency` at a time. */
  const round = async (tokens: string[]) => {
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: work.concurrency }, async () => {
        while (next < tokens.length) {
          const token = tokens[next++]!;
          const t0 = performance.now();
          await login(token);
          latencies.push(performance.now() - t0);
        }
      }),
    );
    return { latencies, seconds: (performance.now() - started) / 1000 };
  };

  await round(work.warmup);
  failures = 0;
  const heapBefore = await heapAfterGc();
  const half = work.measured.length / 2;
  const cpuStart = process.cpuUsage();
  const first = await round(work.measured.slice(0, half));
  const cpuHalf = process.cpuUsage(cpuStart);
  const heapAfterHalf = await heapAfterGc();
  const cpuResume = process.cpuUsage();
  const second = await round(work.measured.slice(half));
  const cpuSecond = process.cpuUsage(cpuResume);
  const heapAfter = await heapAfterGc();
  // Idle past every timer a login may have left (the client's 10 s time limit is one).
  await new Promise((resolve) => setTimeout(resolve, work.idleMs));
  const heapAfterIdle = await heapAfterGc();
  const result: LoadResult = {
    logins: work.measured.length,
    failures,
    seconds: first.seconds + second.seconds,
    latenciesMs: [...first.latencies, ...second.latencies],
    heapBefore,
    heapAfterHalf,
    heapAfter,
    heapAfterIdle,
    cpuMicros: cpuHalf.user + cpuHalf.system + cpuSecond.user + cpuSecond.system,
  };
  process.send!(result, () => process.exit(0));
});
