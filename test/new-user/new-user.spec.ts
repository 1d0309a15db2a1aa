// The new-user path: the three projects the guides describe, each assembled from the files the
// guides quote whole (assemble.ts) over the packed package, run as the guides say, logged in
// through the emulator in Chromium, then driven into the dead ends a person meets: Deny, the
// callback page reloaded, its URL opened again, the server stopped during the login, and a browser
// that blocks all cookies. After every step: words on the page, no raw error code, not a blank
// page, no link to a page that does not exist (look.ts); on the Vite project, an empty console.
// It prints, per project, the lines of auth code the user writes (the quoted files' code lines).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type BrowserContext, type Frame, type Page } from '@playwright/test';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { launchCookieBlockingChromium } from '../e2e/support/cookies-blocked.js';
import { freePort } from '../e2e/support/free-port.js';
import { startServer, stopServer, type RunningServer } from '../e2e/support/server-process.js';
import { userEnvironment } from '../e2e/support/user-env.js';
import { assemble, type Assembled, type Recipe } from './assemble.js';
import { looksRight } from './look.js';

const examples = fileURLToPath(new URL('../../examples/', import.meta.url));
const bin = (name: string): string => path.join(examples, 'node_modules', '.bin', name);

/** The static site's pages, as the static site and web game guides quote them. */
const SITE_PAGES = {
  'public/index.html': 'examples/static-node/public/index.html',
  'public/callback.html': 'examples/static-node/public/callback.html',
  'public/game/index.html': 'examples/static-node/public/game/index.html',
  'public/play.html': 'examples/static-node/public/play.html',
};

interface Project {
  name: string;
  recipe: Recipe;
  /** The command the guide runs, listening on `port`, against the emulator at `itchUrl`. */
  command: (port: number, itchUrl: string) => string[];
  ready: RegExp;
  /** A framed game (play.html frames game/ on another origin) rather than a top-level SPA. */
  framed: boolean;
}

const PROJECTS: Project[] = [
  {
    name: 'node-game',
    recipe: {
      guides: ['docs/guides/static-site.md', 'docs/guides/web-game-popup.md'],
      files: { 'server.js': 'examples/static-node/server.js', ...SITE_PAGES },
    },
    command: () => [process.execPath, 'server.js'],
    ready: /listening on (http:\/\/\S+)/,
    framed: true,
  },
  {
    name: 'worker',
    recipe: {
      guides: ['docs/guides/cloudflare-workers.md', 'docs/guides/static-site.md', 'docs/guides/web-game-popup.md'],
      files: {
        'wrangler.jsonc': 'examples/cloudflare-worker/wrangler.jsonc',
        '.dev.vars': 'examples/cloudflare-worker/.dev.vars',
        'src/worker.js': 'examples/cloudflare-worker/src/worker.js',
        ...SITE_PAGES,
      },
    },
    // wrangler.jsonc's vars are the Worker's settings: the port and the emulator replace the defaults.
    command: (port, itchUrl) => [
      ...[
        process.execPath,
        bin('wrangler'),
        'dev',
        '--port',
        String(port),
        '--inspector-port',
        '0',
        '--show-interactive-dev-session=false',
      ],
      ...[
        '--var',
        `ITCH_BASE_URL:${itchUrl}`,
        '--var',
        `PUBLIC_ORIGIN:http://127.0.0.1:${port}`,
        '--var',
        `GAME_ORIGIN:http://localhost:${port}`,
      ],
    ],
    ready: /Ready on (http:\/\/\S+)/,
    framed: true,
  },
  {
    name: 'vite-react',
    recipe: {
      guides: ['docs/guides/spa-vite.md'],
      files: {
        'vite.config.js': 'examples/vite-react/vite.config.js',
        'index.html': 'examples/vite-react/index.html',
        'callback.html': 'examples/vite-react/callback.html',
        'src/main.tsx': 'examples/vite-react/src/main.tsx',
        'src/App.tsx': 'examples/vite-react/src/App.tsx',
      },
    },
    command: () => [process.execPath, bin('vite')],
    ready: /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/,
    framed: false,
  },
];

function start(project: Project, dir: string, port: number, itch: RunningEmulator): Promise<RunningServer> {
  return startServer({
    name: project.name,
    command: project.command(port, itch.url),
    cwd: dir,
    env: userEnvironment({ PORT: String(port), ITCH_BASE_URL: itch.url, NO_COLOR: '1', FORCE_COLOR: '0', WRANGLER_SEND_METRICS: 'false' }),
    ready: project.ready,
  });
}

/** The game's frame in play.html. */
async function gameFrame(page: Page, origin: string): Promise<Frame> {
  await page.goto(`${origin}/play.html`);
  const frame = page.frameLocator('iframe');
  await expect(frame.locator('#login')).toBeVisible();
  return page.frames().find((candidate) => candidate !== page.mainFrame())!;
}

/** Clicks `target` and returns the popup it opened, with every address its main frame reached (fragments included). */
async function popupOf(context: BrowserContext, click: () => Promise<void>): Promise<{ popup: Page; visited: string[] }> {
  const visited: string[] = [];
  const opened = context.waitForEvent('page');
  await click();
  const popup = await opened;
  popup.on('framenavigated', (frame) => frame === popup.mainFrame() && visited.push(frame.url()));
  return { popup, visited };
}

async function choose(page: Page, decision: 'Approve' | 'Deny'): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /, { timeout: 15_000 });
  if (decision === 'Approve') await page.getByLabel('Log in as').selectOption(String(C.users.press));
  await page.getByRole('button', { name: decision }).click();
}

/**
 * The errors a page logs, as a person with the console open sees them; but for the app's own
 * "signed out" (/me answers 401), which Chromium logs as an error. (The guides' pages name an
 * icon, so none asks for /favicon.ico.)
 */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const resource = message.location().url;
    if (message.text().startsWith('Failed to load resource') && new URL(resource || 'about:blank').pathname === '/me') return;
    errors.push(`${message.text()} (${resource})`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test.beforeAll(() => {
  if (!existsSync(path.join(examples, 'node_modules', 'itch-oauth-widget', 'dist', 'server.js')))
    throw new Error('examples/node_modules has no packed itch-oauth-widget: run npm run test:new-user');
});

/**
 * Runs one dead end as a step of the project's test: what fails in it is reported under its name
 * (softly), and the next dead end still runs, against the same servers.
 */
async function deadEnd(name: string, body: () => Promise<void>): Promise<void> {
  await test.step(name, async () => {
    try {
      await body();
    } catch (error) {
      expect.soft(error instanceof Error ? error.message : String(error), `${name}: stopped here`).toBe('');
    }
  });
}

for (const project of PROJECTS) {
  test.describe(`new user: ${project.name}`, () => {
    test.describe.configure({ timeout: 150_000 });
    let itch: RunningEmulator;
    let built: Assembled;
    let port: number;
    let running: RunningServer | undefined;

    test.beforeAll(async () => {
      itch = await startEmulator({ port: 0 });
      port = await freePort();
      built = assemble(project.name, project.recipe, {
        site: `http://127.0.0.1:${port}`,
        game: `http://localhost:${port}`,
        itch: itch.url,
      });
      const total = Object.values(built.lines).reduce((sum, lines) => sum + lines, 0);
      console.log(`${project.name}: ${total} lines of code from the guides (${JSON.stringify(built.lines)})`);
      if (!built.missing.length) running = await start(project, built.dir, port, itch);
      itch.addRedirectUri(C.clients.demo.clientId, `http://127.0.0.1:${port}/callback.html`);
    });
    test.afterAll(async () => {
      await stopServer(running);
      await itch?.close();
    });

    test('the guides give every file of the project', () => {
      expect(built.missing).toEqual([]);
    });

    if (project.framed) {
      test('the framed game: log in, Deny, the callback again, cookies blocked, the server gone', async ({ browser }) => {
        test.skip(built.missing.length > 0, 'the guides do not give every file');
        const fresh = async (): Promise<{ context: BrowserContext; page: Page }> => {
          const context = await browser.newContext();
          return { context, page: await context.newPage() };
        };

        await deadEnd('log in from the framed game, then open the popup’s callback URL again', async () => {
          const { context, page } = await fresh();
          const game = await gameFrame(page, running!.origin);
          const { popup, visited } = await popupOf(context, () => game.locator('#login').click());
          await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /, { timeout: 15_000 });
          await looksRight(popup, 'the emulator’s consent page');
          await choose(popup, 'Approve');
          await expect(game.locator('#player')).toContainText('Hello, ', { timeout: 15_000 });
          await looksRight(page, 'the game, logged in');
          const callback = visited.find((url) => /\/callback(\.html)?#access_token=/.test(url)); // (wrangler's assets drop .html)
          expect(callback, `the popup reached the callback page with the token (it went to ${visited.join(', ')})`).toBeDefined();
          const again = await context.newPage();
          await again.goto(callback!);
          await expect(again.getByRole('alert').or(again.getByRole('status'))).toBeVisible({ timeout: 10_000 });
          await again.waitForLoadState('networkidle');
          const text = await looksRight(again, 'the popup’s callback URL opened again');
          expect
            .soft(text, 'the popup’s callback URL opened again: the link works once, it does not blame the server')
            .not.toMatch(/refused/i);
          await context.close();
        });

        await deadEnd('the popup’s callback page reloaded while it signs in', async () => {
          const { context, page } = await fresh();
          const game = await gameFrame(page, running!.origin);
          const { popup } = await popupOf(context, () => game.locator('#login').click());
          // The capture's POST held for a while, so that the reload comes while the page signs in.
          await popup.route(/\/auth\/itch$/, async (route) => {
            await new Promise((resolve) => setTimeout(resolve, 3000));
            await route.continue().catch(() => undefined);
          });
          await choose(popup, 'Approve');
          await popup.waitForURL(/\/callback/);
          await popup.reload();
          await popup.waitForLoadState('networkidle');
          await looksRight(popup, 'the popup’s callback page reloaded');
          // What a popup shows after any outcome: a Close control, and nothing that leads to another address of the site.
          const links = await popup.locator('a[href]').evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
          expect
            .soft(
              links.filter((link) => link.startsWith(running!.origin) || link.startsWith(`http://localhost:${port}`)),
              'the popup reloaded: links back into the site',
            )
            .toEqual([]);
          await expect.soft(popup.getByRole('button', { name: 'Close' }), 'the popup reloaded: a Close control').toBeVisible();
          if (!popup.isClosed()) await popup.close();
          await context.close();
        });

        await deadEnd('Deny, the popup reloaded, then closed', async () => {
          const { context, page } = await fresh();
          const game = await gameFrame(page, running!.origin);
          const { popup } = await popupOf(context, () => game.locator('#login').click());
          await choose(popup, 'Deny');
          await popup.waitForLoadState('networkidle');
          await looksRight(popup, 'the popup after Deny');
          if (!popup.isClosed()) {
            await popup.reload();
            await looksRight(popup, 'the popup after Deny, reloaded');
            await popup.close();
          }
          await expect(game.locator('#status'), 'the game after Deny and the popup closed says something').not.toBeEmpty({
            timeout: 15_000,
          });
          await looksRight(page, 'the game after Deny');
          await context.close();
        });

        await deadEnd('all cookies blocked, in the game and on the site', async () => {
          const { context, close } = await launchCookieBlockingChromium();
          try {
            const page = await context.newPage();
            const game = await gameFrame(page, running!.origin);
            await game.locator('#login').click();
            await expect(game.locator('#status')).not.toBeEmpty({ timeout: 15_000 });
            await looksRight(page, 'the game with cookies blocked');
            const site = await context.newPage();
            await site.goto(`${running!.origin}/`);
            await site.getByRole('button', { name: 'Log in with itch.io' }).first().click();
            await expect(site.locator('#me')).not.toHaveText('Not signed in.', { timeout: 10_000 });
            await looksRight(site, 'the site with cookies blocked, after the click');
          } finally {
            await close();
          }
        });

        await deadEnd('the server stopped during the login', async () => {
          const { context, page } = await fresh();
          const game = await gameFrame(page, running!.origin);
          const { popup } = await popupOf(context, () => game.locator('#login').click());
          await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /, { timeout: 15_000 });
          await stopServer(running);
          running = undefined;
          try {
            await choose(popup, 'Approve');
            if (!popup.isClosed()) await popup.close();
            await expect(game.locator('#status')).not.toBeEmpty({ timeout: 20_000 });
            await looksRight(page, 'the game with its server gone');
          } finally {
            running = await start(project, built.dir, port, itch);
            await context.close();
          }
        });
      });
    } else {
      test('the app: log in, the callback again, Deny, cookies blocked, the server gone', async ({ browser }) => {
        test.skip(built.missing.length > 0, 'the guides do not give every file');
        const fresh = async (): Promise<{ context: BrowserContext; page: Page; errors: string[] }> => {
          const context = await browser.newContext();
          const page = await context.newPage();
          return { context, page, errors: consoleErrors(page) };
        };

        await deadEnd('log in, then the callback page reloaded and its URL opened again', async () => {
          const { context, page, errors } = await fresh();
          const visited: string[] = [];
          page.on('framenavigated', (frame) => frame === page.mainFrame() && visited.push(frame.url()));
          await page.goto(`${running!.origin}/`);
          await looksRight(page, 'the app, signed out');
          await page.getByRole('button', { name: 'Log in with itch.io' }).click();
          await choose(page, 'Approve');
          await expect(page.getByText('Signed in as ')).toBeVisible({ timeout: 15_000 });
          await looksRight(page, 'the app, signed in');
          expect.soft(errors, 'the console of the login’s pages').toEqual([]);
          const callback = visited.find((url) => /\/callback(\.html)?#access_token=/.test(url));
          expect(callback, 'the login went through the callback page').toBeDefined();
          for (const [step, url] of [
            ['the callback page reloaded', callback!.replace(/#.*/, '')],
            ['the callback URL opened again', callback!],
          ] as const) {
            const again = await context.newPage();
            const againErrors = consoleErrors(again);
            await again.goto(url);
            await again.waitForLoadState('networkidle');
            await again.waitForTimeout(500);
            await looksRight(again, step);
            expect.soft(againErrors, `${step}: the console`).toEqual([]);
          }
          await context.close();
        });

        await deadEnd('Deny, and the callback page reloaded', async () => {
          const { context, page } = await fresh();
          await page.goto(`${running!.origin}/`);
          await page.getByRole('button', { name: 'Log in with itch.io' }).click();
          await choose(page, 'Deny');
          await page.waitForLoadState('networkidle');
          await looksRight(page, 'after Deny');
          await page.reload();
          await page.waitForLoadState('networkidle');
          await looksRight(page, 'after Deny, reloaded');
          await context.close();
        });

        await deadEnd('all cookies blocked', async () => {
          const { context, close } = await launchCookieBlockingChromium();
          try {
            const page = await context.newPage();
            const errors = consoleErrors(page);
            await page.goto(`${running!.origin}/`);
            await page.getByRole('button', { name: 'Log in with itch.io' }).click();
            await expect(page.getByRole('alert')).toBeVisible({ timeout: 10_000 });
            await looksRight(page, 'the app with cookies blocked, after the click');
            expect.soft(errors, 'the app with cookies blocked: the console').toEqual([]);
          } finally {
            await close();
          }
        });

        await deadEnd('the server stopped during the login, then back', async () => {
          const { context, page } = await fresh();
          await page.goto(`${running!.origin}/`);
          await page.getByRole('button', { name: 'Log in with itch.io' }).click();
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /, { timeout: 15_000 });
          await stopServer(running);
          running = undefined;
          try {
            await choose(page, 'Approve');
            await page.waitForLoadState('load').catch(() => undefined);
          } finally {
            running = await start(project, built.dir, port, itch);
          }
          await page.reload();
          await page.waitForLoadState('networkidle');
          await page.waitForTimeout(500);
          await looksRight(page, 'the callback page once the server is back');
          await context.close();
        });
      });
    }
  });
}
