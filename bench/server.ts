// The server figures: the emulator in one process, createTokenHandler driven at a fixed
// concurrency in another (with --expose-gc for the heap figures), this process only waiting.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from './server-load.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

function nextMessage<T>(child: ChildProcess, type?: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string }) => {
      if (type !== undefined && message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as T);
    };
    const onExit = (code: number | null) => reject(new Error(`${child.spawnargs.join(' ')} exited with ${code} before answering`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export interface ServerFigures extends LoadResult {
  concurrency: number;
}

/** Idle time before the last heap figure: past every timer a login may leave (the client's 10 s time limit). */
export const IDLE_MS = 11_000;

export async function measureServer(options: {
  warmup: number;
  logins: number;
  concurrency: number;
  sessions?: boolean;
  /** The server module to measure (see server-load.ts). */
  module?: string;
  /** Each login from its own address, with the per-client limits on (see server-load.ts). */
  clientAddresses?: boolean;
  /** Idle time before the last heap figure; default {@link IDLE_MS}. */
  idleMs?: number;
}): Promise<ServerFigures> {
  const emulator = fork(here('./emulator-process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const { url, apiUrl } = await nextMessage<{ url: string; apiUrl: string }>(emulator, 'ready');
    emulator.send({ type: 'tokens', count: options.warmup + options.logins });
    const { tokens } = await nextMessage<{ tokens: string[] }>(emulator, 'tokens');
    const load = fork(here('./server-load.ts'), [], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const answer = nextMessage<LoadResult>(load);
    load.send({
      url,
      apiUrl,
      warmup: tokens.slice(0, options.warmup),
      measured: tokens.slice(options.warmup),
      concurrency: options.concurrency,
      idleMs: options.idleMs ?? IDLE_MS,
      sessions: options.sessions ?? false,
      module: options.module,
      clientAddresses: options.clientAddresses ?? false,
    });
    return { ...(await answer), concurrency: options.concurrency };
  } finally {
    emulator.send({ type: 'close' });
  }
}
