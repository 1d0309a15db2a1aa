// examples/game-server against gameSession() in a real browser: the demo's game logs in (a game
// token bound to its DPoP key), then calls the example, a server of its own that verifies game
// tokens with jose and the site's JWK Set and gives DPoP nonces of its own (RFC 9449 section 9).
// The first call has no nonce for that origin: the example answers 401 use_dpop_nonce with one,
// which CORS lets the page read, and gameSession() sends once more with it; the next call carries
// it at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { startDemo, type RunningDemo } from '../../demo/serve.js';

const gameServerScript = fileURLToPath(new URL('../../examples/game-server/server.js', import.meta.url));
/** The package's entry as the demo game's dev server serves it (its files are allowed there). */
const entry = `/@fs${fileURLToPath(new URL('../../src/index.ts', import.meta.url))}`;

let demo: RunningDemo;
let gameServer: ChildProcess | undefined;
let gameServerOrigin: string;

test.beforeAll(async () => {
  demo = await startDemo({ port: 0, logLevel: 'silent' });
  gameServer = spawn(process.execPath, [gameServerScript], {
    env: { ...process.env, SITE_ORIGIN: demo.url, GAME_ORIGIN: demo.gameUrl, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  gameServerOrigin = await new Promise((resolve, reject) => {
    gameServer!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+?),/.exec(out);
      if (match) resolve(match[1]!);
    });
    gameServer!.once('exit', (code) => reject(new Error(`the game server exited (${code}): ${out}`)));
  });
});
test.afterAll(async () => {
  gameServer?.kill();
  await demo?.close();
});

test('gameSession() calls the example game server: asked for its nonce once, then carries it; the server knows the player', async ({
  page,
  context,
}) => {
  await page.goto(`${demo.gameUrl}/`);
  await expect(page.locator('.game')).toHaveAttribute('data-ready', 'true');
  const popupOpened = context.waitForEvent('page');
  await page.getByRole('button', { name: 'Log in to save' }).click();
  const popup = await popupOpened;
  await popup.getByLabel('Log in as').selectOption(String(C.users.gamer));
  await popup.getByRole('button', { name: 'Approve' }).click();
  await expect(page.locator('[data-player]')).toHaveText('Mossy Pine', { timeout: 15_000 });

  // What the game server answered, in order, as the browser saw it.
  const answers: { status: number; authenticate: string | null; nonce: string | null }[] = [];
  page.on('response', (response) => {
    if (!response.url().startsWith(`${gameServerOrigin}/player`) || response.request().method() !== 'GET') return;
    answers.push({
      status: response.status(),
      authenticate: response.headers()['www-authenticate'] ?? null,
      nonce: response.headers()['dpop-nonce'] ?? null,
    });
  });
  // The game's code, after a reload, with the game server among its API origins: it takes the
  // login back (token and key) and calls the game server twice.
  const players = await page.evaluate(
    async ({ entry, gameServer }) => {
      const { gameSession } = (await import(entry)) as typeof import('../../src/index.js');
      const settings = document.querySelector<HTMLElement>('.game')!.dataset;
      const backend = new URL(settings['backend']!);
      const session = gameSession({
        clientId: settings['clientId']!,
        redirectUri: settings['redirectUri']!,
        baseUrl: settings['baseUrl']!,
        backend: backend.href,
        renew: new URL('/api/game/renew', backend).href,
        apiOrigins: [gameServer],
      });
      if (!(await session.restore())) throw new Error('the login was not taken back');
      const results = [];
      for (let i = 0; i < 2; i++) {
        const answer = await session.fetch(`${gameServer}/player`);
        results.push({ status: answer.status, body: (await answer.json()) as unknown });
      }
      return results;
    },
    { entry, gameServer: gameServerOrigin },
  );

  const player = { status: 200, body: { id: C.users.gamer, username: expect.any(String), owns: expect.any(Object) } };
  expect(players).toEqual([player, player]);
  // Asked once (the page had no nonce of this origin), then the nonce it was given, at once.
  expect(answers.map(({ status }) => status)).toEqual([401, 200, 200]);
  expect(answers[0]!.authenticate).toMatch(/^DPoP error="use_dpop_nonce"/);
  for (const { nonce } of answers) expect(nonce).toMatch(/^[\w-]{43}$/);
});
