import { realpathSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { html } from 'hono/html';
import { DEFAULT_SEED } from './default-seed.js';
import { isLoopbackHost, startEmulator, type RunningEmulator } from './index.js';
import { EmulatorSeedError } from './seed.js';

/**
 * The CLI's port when `--port` is not given: ITCH on a phone keypad, clear of the defaults of the
 * dev servers a site runs beside it (3000, 4173 and 5173 for Vite, 8000, 8080, 8787 for
 * `wrangler dev`, 8788 for `wrangler pages dev`).
 */
const DEFAULT_EMULATOR_PORT = 4824;

const USAGE = `Usage: itch-oauth-widget emulator [options]

Starts a local itch.io (authorization page and API) in memory.

Options:
  --port N              port to listen on (default ${DEFAULT_EMULATOR_PORT}; 0 picks a free one)
  --host H              loopback interface to listen on (default 127.0.0.1)
  --data FILE           seed JSON file (default: the built-in seed; see --print-seed)
  --redirect-uri URI    register one more redirect URI for the first OAuth application
                        and use it in the printed snippet (repeatable)
  --deny-redirect       on Deny, redirect with #error=access_denied (RFC 6749)
                        instead of showing itch.io's "access denied" page
  --coop                send Cross-Origin-Opener-Policy: same-origin on the authorization page
                        (a login popup loses its opener, as behind some authorization servers)
  --print-seed          print the built-in seed as JSON and exit
  --dangerously-allow-non-loopback-host
                        listen on a non-loopback --host (exposes every seeded key)
  -h, --help            show this help

While it runs, type a redirect URI and Enter to register it for the first OAuth application (or
"CLIENT_ID URI" for another one), without a restart. What itch.io would refuse (a fragment, a
non-https address other than loopback http) is refused with its reason.`;

/** Where the CLI writes; the process streams unless a test passes its own. */
export interface CliOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

const processOutput: CliOutput = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/**
 * `itch-oauth-widget emulator [--port N] [--host H] [--data FILE] …`: starts the emulator, prints
 * its address and a `<itch-login-button>` snippet, and stops cleanly on SIGINT or SIGTERM.
 * `argv` is what follows the executable (a leading `emulator` command word is accepted).
 *
 * @returns the running emulator (its `close()` also drops the signal handlers), or undefined
 *   when the command ended at once (help, seed printed, or an error, which sets `process.exitCode`).
 */
export async function main(
  argv: readonly string[] = process.argv.slice(2),
  output: CliOutput = processOutput,
  input: NodeJS.ReadableStream = process.stdin,
): Promise<RunningEmulator | undefined> {
  const settings = readSettings(argv, output);
  if (settings === undefined) return undefined;
  const { values, port, exposed } = settings;
  let emulator: RunningEmulator | undefined;
  const redirectUris = values['redirect-uri'] ?? [];
  try {
    emulator = await startEmulator({
      port,
      host: values.host,
      data: values.data,
      onDeny: values['deny-redirect'] === true ? 'redirect' : 'page',
      coop: values.coop === true,
      dangerouslyAllowNonLoopbackHost: exposed,
    });
    const [first] = emulator.store.applications;
    if (first !== undefined) for (const uri of redirectUris) emulator.addRedirectUri(first.client_id, uri);
  } catch (error) {
    await emulator?.close();
    output.err(error instanceof EmulatorSeedError ? error.message : `Cannot start the emulator: ${(error as Error).message}`);
    process.exitCode = 1;
    return undefined;
  }

  printBanner(emulator, redirectUris, output);
  if (exposed) {
    output.err(`WARNING: listening on ${emulator.host}: anyone who can reach it can use the seeded keys.`);
  }
  const running = emulator;
  const typed = registerTypedRedirectUris(running, input, output);
  const forgetSignals = stopOnSignals(running, typed, output);
  return {
    ...running,
    close: async () => {
      forgetSignals();
      await running.close();
    },
  };
}

/** The command line, checked; undefined when the command ends at once (help, seed printed, or a usage error, which sets `process.exitCode`). */
function readSettings(argv: readonly string[], output: CliOutput) {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        'deny-redirect': { type: 'boolean' },
        coop: { type: 'boolean' },
        'print-seed': { type: 'boolean' },
        'dangerously-allow-non-loopback-host': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return usageError(output, `${(error as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  const [command, ...extra] = positionals;
  if ((command !== undefined && command !== 'emulator') || extra.length > 0) {
    return usageError(output, `Unknown command ${JSON.stringify(positionals.join(' '))}\n\n${USAGE}`);
  }
  if (values.help === true || values['print-seed'] === true) {
    output.out(values.help === true ? USAGE : JSON.stringify(DEFAULT_SEED, null, 2));
    return undefined;
  }
  const port = values.port === undefined ? DEFAULT_EMULATOR_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return usageError(output, `--port must be an integer from 0 to 65535, got ${JSON.stringify(values.port)}`);
  }
  const exposed = values['dangerously-allow-non-loopback-host'] === true;
  if (values.host !== undefined && !isLoopbackHost(values.host) && !exposed) {
    return usageError(
      output,
      `Refusing to listen on ${values.host}: the emulator accepts well-known keys and must stay on a loopback ` +
        'address (127.0.0.1, ::1, localhost). Add --dangerously-allow-non-loopback-host to expose it anyway.',
    );
  }
  return { values, port, exposed };
}

function usageError(output: CliOutput, message: string): undefined {
  output.err(message);
  process.exitCode = 2;
  return undefined;
}

/** Redirect URIs typed while it runs: a new one needs no restart. */
function registerTypedRedirectUris(running: RunningEmulator, input: NodeJS.ReadableStream, output: CliOutput) {
  const typed = createInterface({ input, terminal: false });
  typed.on('line', (line) => {
    const words = line.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) return;
    const [clientId, uri] = words.length === 1 ? [running.store.applications[0]?.client_id ?? '', words[0]!] : words;
    try {
      running.addRedirectUri(clientId!, uri!);
      output.out(`Registered ${uri} for client id ${clientId}.`);
    } catch (error) {
      output.err(`Not registered: ${(error as Error).message}`);
    }
  });
  return typed;
}

/** Stops the emulator on SIGINT, SIGTERM, SIGHUP or when its parent ends; gives the function that forgets all that. */
function stopOnSignals(running: RunningEmulator, typed: ReturnType<typeof createInterface>, output: CliOutput): () => void {
  // Run through `npx`, this process is npm's child: npm exits on SIGTERM without passing it on,
  // and a terminal that closes sends SIGHUP. Either way the emulator stops and frees its port,
  // instead of holding it as an orphan.
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (process.ppid !== parent) stop('the command that started it ended');
  }, 500);
  orphaned.unref();
  const forgetSignals = (): void => {
    typed.close(); // (and pauses the input: it no longer keeps the process alive)
    clearInterval(orphaned);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    process.off('SIGHUP', stop);
  };
  const stop = (why: NodeJS.Signals | string): void => {
    forgetSignals();
    output.out(`\n${why}: stopping the emulator.`);
    running.close().then(
      () => {
        process.exitCode ??= 0;
      },
      (error: unknown) => {
        output.err(`Error while stopping: ${(error as Error).message}`);
        process.exitCode = 1;
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  return forgetSignals;
}

function printBanner(emulator: RunningEmulator, redirectUris: readonly string[], output: CliOutput): void {
  const [app] = emulator.store.applications;
  output.out(`itch.io emulator listening on ${emulator.url}`);
  const redirectUri = app && (redirectUris[0] ?? app.redirect_uris.find((uri) => uri.startsWith('http')) ?? app.redirect_uris[0] ?? '');
  if (app !== undefined) {
    const snippet = html`<itch-login-button client-id="${app.client_id}" redirect-uri="${redirectUri}" base-url="${emulator.url}"></itch-login-button>`;
    output.out(`\nPaste into your page (${app.name}):\n\n  ${String(snippet)}\n`);
  }
  const applicationId = app === undefined ? '' : `applicationId: ${app.id}, `;
  output.out(`Server side: createTokenHandler({ ${applicationId}baseUrl: '${emulator.url}', apiBaseUrl: '${emulator.apiUrl}', onLogin })`);
  // What popup mode and a framed game add (the web game guide's server snippet): the start page
  // limited to this application, and the game's origin, which also gets a game token.
  if (app !== undefined) {
    output.out(`  popup mode, add: popup: true, clientId: '${app.client_id}', redirectUri: '${redirectUri}'`);
    output.out(`  a framed game, add: allowedOrigins: [its origin, e.g. 'https://html-classic.itch.zone'], here and in createSessions\n`);
  } else output.out('');
  output.out('OAuth applications (application id, client id: redirect URIs):');
  for (const application of emulator.store.applications) {
    output.out(`  ${application.id}, ${application.client_id}: ${application.redirect_uris.join(', ')}`);
  }
  // What the ownership option needs: the games, their developer's API key, and who owns which.
  const store = emulator.store;
  if (store.games.length > 0) {
    output.out('\nGames (for ownership: { gameIds, apiKey }), with the test users who own each:');
    for (const game of store.games.slice(0, 12)) {
      const developer = store.user(game.user_id);
      const key = store.apiKeys.find(
        (record) =>
          record.user_id === game.user_id && !record.revoked && record.scopes === undefined && record.oauth_application_id === undefined,
      );
      const owners = store.users
        .filter((user) => store.activeKeysFor(game.id, { userId: user.id }).length > 0)
        .map((user) => user.username);
      output.out(
        `  ${game.id} ${game.title} by ${developer?.username ?? game.user_id}${key === undefined ? '' : `, apiKey '${key.key}'`}; owned by: ${owners.join(', ') || 'nobody'}`,
      );
    }
  }
  // A game "launched by the itch app": the key fromItchApp() and `login --from-itch-app` read.
  const now = emulator.store.now().getTime();
  const jwt = emulator.store.jwts.find((record) => record.expires_at.getTime() > now);
  const player = jwt === undefined ? undefined : emulator.store.user(jwt.user_id);
  if (jwt !== undefined && player !== undefined) {
    output.out(`\nAs if launched by the itch app (${player.username}, ${jwt.scopes.join(' ')}; fromItchApp, login --from-itch-app):`);
    output.out(`  ITCHIO_API_KEY=${jwt.token} ITCHIO_API_KEY_EXPIRES_AT=${jwt.expires_at.toISOString()}`);
  }
  output.out('\nType a redirect URI and Enter to register it (no restart). Press Ctrl+C to stop.');
}

/**
 * Whether this file is the program being run (`node dist/emulator/cli.js`, `tsx
 * src/emulator/cli.ts`, or a `bin` link to either). Bundled into another entry (e.g. a `cli`
 * that dispatches subcommands), it never starts by itself: that entry calls {@link main}.
 */
function isMainModule(): boolean {
  const self = fileURLToPath(import.meta.url);
  const entry = process.argv[1];
  if (entry === undefined || !/[\\/]emulator[\\/]cli\.[cm]?[jt]s$/.test(self)) return false;
  try {
    return realpathSync(entry) === realpathSync(self);
  } catch {
    return false;
  }
}

if (isMainModule()) void main();
