// A user's server run as its own process group: started with the command its README gives,
// ready once its output shows the address, and stopped with everything it started (wrangler's
// workerd too).
import { spawn, type ChildProcess } from 'node:child_process';

export interface RunningServer {
  /** The address it printed, on 127.0.0.1, without a trailing slash. */
  origin: string;
  child: ChildProcess;
  /** Everything the server wrote, stdout and stderr. */
  log: () => string;
}

export interface ServerCommand {
  /** Names the server in errors. */
  name: string;
  /** The program and its arguments. */
  command: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Matches the output once the server listens; its first group is the address. */
  ready: RegExp;
}

/** Starts the server and resolves once `ready` matches its output (60 s at the most). */
export async function startServer({ name, command: [command, ...args], cwd, env, ready }: ServerCommand): Promise<RunningServer> {
  const child = spawn(command!, args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so that stopServer() ends what it started (wrangler's workerd)
  });
  let log = '';
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 60 s:\n${log}`)), 60_000);
    const read = (chunk: Buffer): void => {
      log += chunk.toString();
      // eslint-disable-next-line no-control-regex -- the terminal's colour codes, taken out
      const match = ready.exec(log.replace(/\x1b\[[0-9;]*m/g, ''));
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace('localhost', '127.0.0.1').replace(/\/$/, ''));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready:\n${log}`)));
  });
  return { origin, child, log: () => log };
}

/** Ends the server's process group (the server and what it started), by its id. */
export async function stopServer(running: RunningServer | undefined): Promise<void> {
  const child = running?.child;
  if (child?.pid === undefined) return;
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group is gone already.
    }
  };
  const exited =
    child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
  signal('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  signal('SIGKILL');
}
