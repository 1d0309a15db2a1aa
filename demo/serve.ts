// `npm run demo`: the Starfall Keep site (Vite, pages in demo/) with its backend, and a local
// itch.io (the emulator) on a second origin. With ITCH_CLIENT_ID set, real itch.io instead.
//
//   tsx demo/serve.ts [--port N] [--emulator-port N] [--deny-redirect] [--owners-only]
//
// Tests start it in-process: `const demo = await startDemo({ port: 0 }); … await demo.close()`.
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build, createServer, type LogLevel, type Rolldown } from 'vite';
import { DEFAULT_BASE_URL } from '../src/core/authorize-url.js';
import { DEFAULT_API_BASE_URL } from '../src/server/itch-api/client.js';
import { DEFAULT_SEED_CREDENTIALS, startEmulator, type DenyBehaviour, type RunningEmulator } from '../src/emulator/index.js';
import { itchOAuthCapture } from '../src/vite/index.js';
import { BACKEND_PATHS, createDemoBackend, type VaultSettings } from './server/backend.js';
import { demoPlugin, fillLoginSettings, type LoginSettings } from './server/plugin.js';

const DEMO_ROOT = fileURLToPath(new URL('.', import.meta.url));
/**
 * Dependencies' production builds even in Vite's dev server, so that no development build warns
 * in the pages' console: the demo's console stays clean.
 */
const RESOLVE = { conditions: ['module', 'browser', 'production'] };
const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
/**
 * Each Vite server its own dependency cache. The site and the game are two servers with two
 * configurations: sharing Vite's one default cache, each found the other's stale and rewrote it
 * while the other's pages were loading, and Vite then reloaded such a page (the framed game lost
 * its stars, and a click meant for it was lost).
 */
function dependencyCache(name: string) {
  return {
    cacheDir: fileURLToPath(new URL(`../node_modules/.vite/demo-${name}`, import.meta.url)),
  };
}
const CALLBACK_PATH = '/callback.html';
/** The capture's `data-backend`. */
const TOKEN_PATH = BACKEND_PATHS[0];
export const DEFAULT_PORT = 5173;

/** A real itch.io OAuth application, instead of the emulator's. */
export interface RealItchSettings {
  clientId: string;
  /** Default `http://127.0.0.1:<port>/callback.html`; its path must be `/callback.html`. */
  redirectUri?: string | undefined;
  /** Default `https://itch.io`. */
  baseUrl?: string | undefined;
  /** Default `https://api.itch.io`. */
  apiBaseUrl?: string | undefined;
  /** The application's numeric id: the backend refuses tokens issued to any other application. */
  applicationId: number;
  /** Your game and API key, for the owners-only vault; without them the vault is not set up. */
  vault?: VaultSettings | undefined;
}

export interface DemoOptions {
  /** Port of the site; default 5173; `0` picks a free one. */
  port?: number | undefined;
  /** Use real itch.io; default: start the emulator. */
  itch?: RealItchSettings | undefined;
  /** Port of the emulator; default `0` (a free one). */
  emulatorPort?: number | undefined;
  /** What the emulator's Deny does; default `page`, like itch.io. */
  onDeny?: DenyBehaviour | undefined;
  /** What the backend does for a login window without an opener (the isolated game page); default `confirm`. */
  severedOpener?: 'confirm' | 'refuse' | undefined;
  /** Vite's log level; default `info`. */
  logLevel?: LogLevel | undefined;
  /**
   * Only owners of the game may log in at all (the token handler's `ownership.require`): the
   * others are refused with `not_owner` on the callback page. Default: everyone logs in and only
   * the vault is for owners.
   */
  ownersOnly?: boolean | undefined;
  /**
   * The secret of the sessions (at least 32 characters, e.g. `openssl rand -base64 32`): it
   * encrypts the site's cookies and signs the game's tokens. Default: a random one made at start,
   * so a restart signs everyone out. The command reads it from `ITCH_SESSION_SECRET`.
   */
  sessionSecret?: string | undefined;
}

export interface RunningDemo {
  /** The site's origin, e.g. `http://127.0.0.1:5173`. */
  url: string;
  /** The emulator (`emulator.url` is its origin); undefined with real itch.io. */
  emulator: RunningEmulator | undefined;
  /** The framed browser game's origin (`http://localhost:<port>`: another site than `url`). */
  gameUrl: string;
  /** What the site's login buttons use. */
  login: LoginSettings;
  /** Where the backend checks tokens: `https://api.itch.io`, or the emulator's `apiUrl`. */
  apiBaseUrl: string;
  close(): Promise<void>;
}

/**
 * Real itch.io settings from `ITCH_CLIENT_ID` (+ `ITCH_REDIRECT_URI`, `ITCH_BASE_URL`,
 * `ITCH_API_BASE_URL`, `ITCH_APPLICATION_ID`), if set.
 */
export function realItchFromEnv(env: NodeJS.ProcessEnv = process.env): RealItchSettings | undefined {
  const clientId = env['ITCH_CLIENT_ID']?.trim();
  if (!clientId) return undefined;
  const applicationId = env['ITCH_APPLICATION_ID']?.trim();
  if (!applicationId) {
    throw new Error(
      "ITCH_APPLICATION_ID is needed with ITCH_CLIENT_ID: the number in your OAuth application's address on https://itch.io/user/settings/oauth-apps (without it, tokens issued to any other application would log in)",
    );
  }
  if (!/^[1-9]\d*$/.test(applicationId))
    throw new Error(`ITCH_APPLICATION_ID must be a positive integer, got ${JSON.stringify(applicationId)}`);
  const gameId = env['ITCH_GAME_ID']?.trim();
  if (gameId && !/^[1-9]\d*$/.test(gameId)) throw new Error(`ITCH_GAME_ID must be a positive integer, got ${JSON.stringify(gameId)}`);
  const storeUrl = env['ITCH_STORE_URL']?.trim();
  if (gameId && !storeUrl) throw new Error("ITCH_STORE_URL (the game's itch.io page) is needed with ITCH_GAME_ID");
  return {
    vault: gameId ? { gameId: Number(gameId), storeUrl: storeUrl!, apiKey: env['ITCH_API_KEY']?.trim() || undefined } : undefined,
    clientId,
    redirectUri: env['ITCH_REDIRECT_URI']?.trim() || undefined,
    baseUrl: env['ITCH_BASE_URL']?.trim() || undefined,
    apiBaseUrl: env['ITCH_API_BASE_URL']?.trim() || undefined,
    applicationId: Number(applicationId),
  };
}

/** The capture, built from src/ as a classic script (what dist/itch-oauth-capture.iife.js holds). */
async function buildCaptureScript(): Promise<string> {
  const result = (await build({
    configFile: false,
    root: PACKAGE_ROOT,
    logLevel: 'silent',
    publicDir: false,
    build: {
      write: false,
      target: 'es2020',
      minify: true,
      lib: { entry: 'src/capture/script-tag.ts', formats: ['iife'], name: 'ItchOAuthCapture', fileName: () => 'capture.js' },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const [chunk] = (Array.isArray(result) ? result[0]! : result).output;
  return chunk.code.trim();
}

/** Starts the emulator (unless `itch` is given), the backend and the Vite dev server. */
export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const { itch } = options;
  const port = options.port ?? DEFAULT_PORT;
  if (itch !== undefined && port === 0) throw new Error('with real itch.io, the port must be fixed: the registered redirect URI names it');
  const emulatorClient = DEFAULT_SEED_CREDENTIALS.clients.demo;
  let emulator: RunningEmulator | undefined;
  if (itch === undefined) emulator = await startEmulator({ port: options.emulatorPort ?? 0, onDeny: options.onDeny ?? 'page' });

  const closers: (() => Promise<void>)[] = [];
  try {
    const baseUrl = (itch?.baseUrl ?? emulator?.url ?? DEFAULT_BASE_URL).replace(/\/$/, '');
    const apiBaseUrl = (itch?.apiBaseUrl ?? emulator?.apiUrl ?? DEFAULT_API_BASE_URL).replace(/\/$/, '');
    const publicRedirect = itch?.redirectUri === undefined ? undefined : new URL(itch.redirectUri);
    if (publicRedirect !== undefined && publicRedirect.pathname !== CALLBACK_PATH) {
      throw new Error(`ITCH_REDIRECT_URI must end in ${CALLBACK_PATH} (the demo's callback page), got ${publicRedirect.href}`);
    }
    if (
      publicRedirect !== undefined &&
      ['127.0.0.1', 'localhost'].includes(publicRedirect.hostname) &&
      publicRedirect.port !== String(port)
    ) {
      throw new Error(
        `ITCH_REDIRECT_URI ${publicRedirect.href} is on another port than the demo's (${port}): pass --port ${publicRedirect.port || 80}`,
      );
    }
    // Filled in once the server listens (the port may be picked by the OS).
    // The vault's game: Starfall Keep and the seeded developer's key with the emulator (its owners
    // are DEFAULT_SEED_OWNERS), your game and key with real itch.io.
    const seeded = DEFAULT_SEED_CREDENTIALS;
    const vault: VaultSettings | undefined =
      itch === undefined
        ? { gameId: seeded.games.starfallKeep, storeUrl: 'https://pixelforge.itch.io/starfall-keep', apiKey: seeded.apiKeys.developer }
        : itch.vault;
    if (options.ownersOnly === true) {
      if (vault === undefined) throw new Error('owners-only needs the game: set ITCH_GAME_ID and ITCH_STORE_URL');
      vault.requireOwnership = true;
    }
    const login: LoginSettings = {
      clientId: itch?.clientId ?? emulatorClient.clientId,
      redirectUri: '',
      baseUrl,
      storeUrl: vault?.storeUrl,
    };

    // The browser game, on another site (localhost vs 127.0.0.1), as itch.io frames HTML5 games
    // from html-classic.itch.zone.
    const game = await createServer({
      configFile: false,
      root: fileURLToPath(new URL('./game/', import.meta.url)),
      appType: 'mpa',
      resolve: RESOLVE,
      ...dependencyCache('game'),
      logLevel: options.logLevel ?? 'info',
      clearScreen: false,
      server: {
        host: '127.0.0.1',
        port: 0,
        fs: { allow: [PACKAGE_ROOT] },
        cors: false,
        allowedHosts: ['localhost'],
        // The game as itch.io serves SharedArrayBuffer games: COEP credentialless on its files. A
        // cross-origin frame under a cross-origin-isolated page loads only with COEP of its own
        // and Cross-Origin-Resource-Policy, under credentialless as under require-corp (Chromium
        // checks both for frames); credentialless spares only the frame's no-cors subresources.
        headers: { 'Cross-Origin-Embedder-Policy': 'credentialless', 'Cross-Origin-Resource-Policy': 'cross-origin' },
      },
      plugins: [{ name: 'itch-oauth-demo-game', transformIndexHtml: { order: 'pre', handler: (html) => fillLoginSettings(html, login) } }],
    });
    await game.listen();
    const gameAddress = game.httpServer?.address();
    if (gameAddress === null || gameAddress === undefined || typeof gameAddress === 'string')
      throw new Error('the demo game is not listening on a TCP port');
    const gameUrl = `http://localhost:${gameAddress.port}`;
    login.gameUrl = gameUrl;
    closers.push(() => game.close());

    const backend = createDemoBackend({
      gameOrigin: gameUrl,
      baseUrl,
      apiBaseUrl,
      applicationId: itch === undefined ? emulatorClient.id : itch.applicationId,
      // Behind a tunnel, the site is the public origin of the redirect URI (never the Host the
      // tunnel passes on); on loopback, its own address.
      origin: publicRedirect?.origin,
      avatars: itch !== undefined,
      vault,
      severedOpener: options.severedOpener,
      sessionSecrets: options.sessionSecret === undefined ? undefined : [options.sessionSecret],
    });
    const capture = itchOAuthCapture({
      callback: CALLBACK_PATH,
      backend: TOKEN_PATH,
      captureSource: await buildCaptureScript(),
      // The pending view in the site's look: a <style> before the capture, nothing added to it.
      pendingStyle: (await readFile(new URL('app/pending.css', import.meta.url), 'utf8')).replace(/\/\*[^]*?\*\/\s*/g, '').trim(),
    });

    const vite = await createServer({
      configFile: false,
      root: DEMO_ROOT,
      appType: 'mpa',
      resolve: RESOLVE,
      ...dependencyCache('site'),
      logLevel: options.logLevel ?? 'info',
      clearScreen: false,
      server: {
        host: '127.0.0.1',
        port,
        // A registered redirect URI names one port: with real itch.io, it must be this one.
        strictPort: itch !== undefined,
        fs: { allow: [PACKAGE_ROOT] },
        // The pages and the backend share one origin: no cross-origin reads of anything.
        cors: false,
        allowedHosts: publicRedirect === undefined ? [] : [publicRedirect.hostname],
      },
      plugins: [
        demoPlugin({
          backend,
          callbackPath: CALLBACK_PATH,
          callbackFile: fileURLToPath(new URL(`.${CALLBACK_PATH}`, import.meta.url)),
          captureCspHash: capture.api.cspHash,
          login: () => login,
        }),
        capture,
      ],
    });
    await vite.listen();
    const address = vite.httpServer?.address();
    if (address === null || address === undefined || typeof address === 'string')
      throw new Error('the demo is not listening on a TCP port');
    const url = `http://127.0.0.1:${address.port}`;
    login.redirectUri = publicRedirect?.href ?? `${url}${CALLBACK_PATH}`;
    login.gameBackend = `${url}${TOKEN_PATH}`;
    // The seed registers port 5173; any other port is registered here.
    emulator?.addRedirectUri(login.clientId, login.redirectUri);

    return {
      url,
      emulator,
      gameUrl,
      login,
      apiBaseUrl,
      close: async () => {
        await vite.close();
        for (const close of closers) await close();
        await emulator?.close();
      },
    };
  } catch (error) {
    for (const close of closers) await close();
    await emulator?.close();
    throw error;
  }
}

const USAGE = `Usage: tsx demo/serve.ts [options]

Starts the Starfall Keep demo site and a local itch.io (the emulator) to log in with.

Options:
  --port N            port of the site (default ${DEFAULT_PORT}; 0 picks a free one; or PORT=N)
  --emulator-port N   port of the emulator (default: a free one)
  --deny-redirect     on Deny, the emulator redirects back with #error=access_denied (RFC 6749)
                      instead of showing itch.io's "access denied" page
  --owners-only       only owners of the game may log in at all (the others are refused with
                      not_owner); by default everyone logs in and only the vault is for owners
  -h, --help          show this help

Sessions:
  ITCH_SESSION_SECRET   the secret (32+ characters, e.g. openssl rand -base64 32) that encrypts the
                        session cookies and signs the game's tokens; default: a random one made at
                        start, so restarting the demo signs everyone out

Real itch.io instead of the emulator:
  ITCH_CLIENT_ID        your OAuth application's client id (switches the emulator off)
  ITCH_REDIRECT_URI     its registered redirect URI (default http://127.0.0.1:<port>/callback.html)
  ITCH_APPLICATION_ID   its numeric id: the backend then refuses tokens of other applications
  ITCH_BASE_URL         default https://itch.io
  ITCH_GAME_ID          your game's id: its owners may open the vault
  ITCH_STORE_URL        its itch.io page, where the others are sent to buy it
  ITCH_API_KEY          your API key (server-side only) to check ownership by download key;
                        without it the buttons would have to ask for game:view:ownership`;

function portOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new Error(`${name} must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
  return port;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'emulator-port': { type: 'string' },
      'deny-redirect': { type: 'boolean' },
      'owners-only': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    console.log(USAGE);
    return;
  }
  const itch = realItchFromEnv();
  const demo = await startDemo({
    port: portOption('--port', values.port ?? process.env['PORT']),
    emulatorPort: portOption('--emulator-port', values['emulator-port']),
    onDeny: values['deny-redirect'] === true ? 'redirect' : 'page',
    ownersOnly: values['owners-only'] === true,
    sessionSecret: process.env['ITCH_SESSION_SECRET']?.trim() || undefined,
    itch,
    logLevel: 'warn',
  });

  const lines = [
    `\n  Starfall Keep demo   ${demo.url}`,
    `  framed browser game  ${demo.gameUrl} (another site: it logs in through a popup)`,
    process.env['ITCH_SESSION_SECRET']?.trim()
      ? '  sessions             secret from ITCH_SESSION_SECRET'
      : '  sessions             random secret: restarting signs everyone out (set ITCH_SESSION_SECRET to keep them)',
  ];
  if (demo.emulator !== undefined) {
    lines.push(
      `  itch.io emulator     ${demo.emulator.url}`,
      '',
      `  Open ${demo.url} and click "Log in with itch.io", or "Log in to save" in the game under "Play in your browser".`,
      "  On the emulator's consent page, pick a user (no passwords) and click Approve.",
      `  The vault (${demo.url}/vault.html) opens for owners of Starfall Keep: mossy (bought it), inkwell`,
      '  (claimed key), bramble (bundle); fernlight, quietbyte and pixelforge are told to buy it.',
    );
  } else {
    lines.push(
      `  itch.io              ${demo.login.baseUrl} (client id ${demo.login.clientId})`,
      `  token checked at     ${demo.apiBaseUrl}/credentials/info and /profile`,
      `  redirect URI         ${demo.login.redirectUri} (must be registered for the application, exactly)`,
      '',
      `  Open ${demo.url} and click "Log in with itch.io".`,
    );
  }
  lines.push('', '  Press Ctrl+C to stop.\n');
  console.log(lines.join('\n'));

  const stop = (signal: NodeJS.Signals): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    console.log(`\n${signal}: stopping the demo.`);
    demo.close().then(
      () => {
        process.exitCode ??= 0;
      },
      (error: unknown) => {
        console.error(`Error while stopping: ${(error as Error).message}`);
        process.exitCode = 1;
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function isMainModule(): boolean {
  const entry = process.argv[1];
  try {
    return entry !== undefined && realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMainModule()) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`Cannot start the demo: ${(error as Error).message}`);
    process.exitCode = 1;
  });
}
