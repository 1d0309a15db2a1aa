import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { OOB_REDIRECT_URI } from '../core/authorize-url.js';
import { ItchOAuthError } from '../core/errors.js';
import { fromItchApp, ITCH_APP_KEY_VARIABLE } from './from-itch-app.js';
import { loginWithLoopback } from './loopback.js';
import { DEFAULT_LOGIN_TIMEOUT_MS } from './loopback-options.js';
import { loginOutOfBand } from './out-of-band.js';
import type { DesktopLoginResult } from './verify.js';

const USAGE = `Usage: itch-oauth-widget login --client-id ID --redirect-uri URI [options]
       itch-oauth-widget login --client-id ID --oob [options]
       itch-oauth-widget login --from-itch-app [--client-id ID --redirect-uri URI] [options]

Logs in with itch.io and prints the access token, alone, on standard output; everything else
goes to standard error. For scripts: TOKEN="$(npx itch-oauth-widget login …)".

Options:
  --client-id ID        Client ID of the itch.io OAuth application (required)
  --redirect-uri URI    the application's registered loopback redirect URI, e.g.
                        http://127.0.0.1:34567/callback: the login listens there (required
                        without --oob). When its port is taken and standard input is a
                        terminal, the login falls back to --oob.
  --oob                 out-of-band: itch.io shows the key on its page and you paste it here
                        (the application must have ${OOB_REDIRECT_URI} as a redirect URI)
  --from-itch-app       first the key the itch app passes to a game it launches
                        (${ITCH_APP_KEY_VARIABLE}, checked with itch.io): no browser at all. Without
                        it (or when itch.io refuses it), the browser login of --client-id, if given
  --scope S             space-separated scopes (default profile:me)
  --base-url U          where itch.io lives (default https://itch.io)
  --api-base-url U      where its OAuth API lives (default https://api.itch.io)
  --no-browser          print the address to open instead of opening the browser
  --timeout SECONDS     how long to wait for the browser (default ${DEFAULT_LOGIN_TIMEOUT_MS / 1000})
  -h, --help            show this help

Exit codes:
  0    logged in: the token is on standard output
  1    the login failed: refused, timed out, key unknown to itch.io, itch.io unreachable,
       or the port cannot be bound
  2    wrong usage or configuration
  130  interrupted (Ctrl+C)`;

/** Where the command reads and writes; the process's streams unless a test passes its own. */
export interface LoginCliIo {
  /** Standard output: only ever the token. */
  out: (text: string) => void;
  /** Messages for the person at the terminal. */
  err: (text: string) => void;
  /** Where a pasted key is read from. */
  input: NodeJS.ReadableStream;
  /** Whether `input` is a terminal (a person can paste a key there). */
  interactive: boolean;
}

const processIo = (): LoginCliIo => ({
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  input: process.stdin,
  interactive: process.stdin.isTTY === true,
});

async function openInBrowser(url: string): Promise<void> {
  const { default: open } = await import('open');
  const child = await open(url);
  child.once('error', () => undefined);
}

/**
 * `itch-oauth-widget login …`: logs in through the loopback redirect URI (or `--oob`) and prints
 * the token alone on standard output. Sets `process.exitCode` (see the usage text) and resolves
 * to the login's result, or undefined when it failed.
 */
export async function main(argv: readonly string[], io: LoginCliIo = processIo()): Promise<DesktopLoginResult | undefined> {
  const values = readArguments(argv, io);
  if (values === undefined) return undefined;
  if (values.help === true) {
    io.err(USAGE);
    return undefined;
  }
  const clientId = values['client-id'];
  if (values['from-itch-app'] === true) {
    const result = await loginFromItchApp(values['base-url'], values['api-base-url'], clientId !== undefined, io);
    if (result !== undefined || clientId === undefined) return result;
  }
  const redirectUri = values['redirect-uri'];
  const oob = values.oob === true || redirectUri === OOB_REDIRECT_URI;
  const timeoutSeconds = values.timeout === undefined ? DEFAULT_LOGIN_TIMEOUT_MS / 1000 : Number(values.timeout);
  const usageError =
    clientId === undefined
      ? '--client-id is required'
      : redirectUri === undefined && !oob
        ? '--redirect-uri is required (or --oob)'
        : !(Number.isFinite(timeoutSeconds) && timeoutSeconds > 0)
          ? `--timeout must be a positive number of seconds, got ${JSON.stringify(values.timeout)}`
          : undefined;
  if (usageError !== undefined || clientId === undefined) {
    io.err(`${usageError}\n\n${USAGE}`);
    process.exitCode = 2;
    return undefined;
  }
  return runLogin({ ...values, 'client-id': clientId }, oob, timeoutSeconds, io);
}

type Arguments = NonNullable<ReturnType<typeof readArguments>>;

/** The command line's options, or undefined (usage printed, exit code 2) when it cannot be read. */
function readArguments(argv: readonly string[], io: LoginCliIo) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: false,
      options: {
        'client-id': { type: 'string' },
        'redirect-uri': { type: 'string' },
        oob: { type: 'boolean' },
        'from-itch-app': { type: 'boolean' },
        scope: { type: 'string' },
        'base-url': { type: 'string' },
        'api-base-url': { type: 'string' },
        'no-browser': { type: 'boolean' },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return undefined;
  }
}

/** The browser login of checked arguments, until it ends or Ctrl+C; prints the token and sets the exit code. */
async function runLogin(
  values: Arguments & { 'client-id': string },
  oob: boolean,
  timeoutSeconds: number,
  io: LoginCliIo,
): Promise<DesktopLoginResult | undefined> {
  const controller = new AbortController();
  const interrupt = (): void => controller.abort(new Error('interrupted'));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const { showAndOpen, readKey } = prompts(io, values['no-browser'] === true, controller.signal);
  const common = {
    clientId: values['client-id'],
    scope: values.scope,
    baseUrl: values['base-url'],
    apiBaseUrl: values['api-base-url'],
    signal: controller.signal,
  };

  try {
    const result = oob
      ? await loginOutOfBand({ ...common, readKey })
      : await loginWithLoopback({
          ...common,
          redirectUri: values['redirect-uri'] as string,
          timeoutMs: timeoutSeconds * 1000,
          readKey: io.interactive ? readKey : undefined,
          openBrowser: async (url) => {
            await showAndOpen(url);
            io.err(`Waiting for you to approve in the browser (Ctrl+C to cancel; gives up after ${formatSeconds(timeoutSeconds)})…`);
          },
        });
    io.err(`Logged in with itch.io. The token carries: ${result.scopes.join(' ') || '(no scopes)'}`);
    io.out(result.accessToken);
    process.exitCode = 0;
    return result;
  } catch (error) {
    if (controller.signal.aborted && error === controller.signal.reason) {
      io.err('Login cancelled.');
      process.exitCode = 130;
    } else if (error instanceof ItchOAuthError) {
      io.err(`Login failed (${error.code}): ${error.message}`);
      process.exitCode = error.code === 'config_invalid' ? 2 : 1;
    } else {
      io.err(`Login failed: ${(error as Error).message}`);
      process.exitCode = 1;
    }
    return undefined;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
}

/** What the login says and asks at the terminal: the address to open (opened too, unless `noBrowser`), and the pasted key. */
function prompts(io: LoginCliIo, noBrowser: boolean, signal: AbortSignal) {
  const showAndOpen = async (url: string): Promise<void> => {
    io.err(
      noBrowser
        ? 'Open this address in your browser to log in with itch.io (it works once):'
        : 'Opening your browser at the itch.io login page. If it does not open, visit (this address works once):',
    );
    io.err(`  ${url}`);
    if (noBrowser) return;
    try {
      await openInBrowser(url);
    } catch (error) {
      io.err(`(could not open a browser: ${(error as Error).message})`);
    }
  };
  const readKey = async (url: string): Promise<string> => {
    await showAndOpen(url);
    io.err('After you approve, itch.io shows a key: paste it here and press Enter.');
    const terminal = createInterface({ input: io.input, output: process.stderr, terminal: io.interactive });
    try {
      const ended = new Promise<string>((resolve) => terminal.once('close', () => resolve('')));
      return await Promise.race([terminal.question('Key: ', { signal }), ended]);
    } finally {
      terminal.close();
    }
  };
  return { showAndOpen, readKey };
}

/**
 * `--from-itch-app`: the itch app's key, printed like a login's token. Undefined (exit code set
 * unless the browser login follows) when there is none or itch.io refuses it.
 */
async function loginFromItchApp(
  baseUrl: string | undefined,
  apiBaseUrl: string | undefined,
  fallback: boolean,
  io: LoginCliIo,
): Promise<DesktopLoginResult | undefined> {
  const next = fallback ? ': logging in through the browser instead' : '';
  try {
    const login = await fromItchApp({ baseUrl, apiBaseUrl });
    if (login === undefined) {
      io.err(
        `Not launched by the itch app (${ITCH_APP_KEY_VARIABLE} is not set)${next || ': pass --client-id and --redirect-uri to log in through the browser instead'}.`,
      );
      if (!fallback) process.exitCode = 1;
      return undefined;
    }
    io.err(
      `Logged in with the itch app as ${login.user.username} (${login.user.id}); the key carries: ${login.scopes.join(' ') || '(no scopes)'}, until ${login.expiresAt.toISOString()}`,
    );
    io.out(login.accessToken);
    process.exitCode = 0;
    return { accessToken: login.accessToken, scopes: login.scopes };
  } catch (error) {
    const code = error instanceof ItchOAuthError ? ` (${error.code})` : '';
    io.err(`The itch app's key was not accepted${code}: ${(error as Error).message}${next}`);
    if (!fallback) process.exitCode = error instanceof ItchOAuthError && error.code === 'config_invalid' ? 2 : 1;
    return undefined;
  }
}

function formatSeconds(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} seconds`;
}
