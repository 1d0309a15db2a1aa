// A canvas game that reads its input in requestAnimationFrame and calls ItchOAuth.login() from
// its loop, as most engines' web exports do (Godot, Unity, GameMaker, Construct, Defold, Phaser):
// the frame after the click, or after a timer. Whether the browser still lets the popup open then
// depends on its transient user activation
// (https://html.spec.whatwg.org/multipage/interaction.html#tracking-user-activation); without
// one, login() shows its "Continue with itch.io" button, whose real click opens the popup.
// The game is framed by a page of another site, as itch.io frames it; the popup blocker is on
// (puppeteer-session.ts, webkit-session.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { startPopupWorld, type PopupWorld } from '../e2e/support/popup-world.js';
import { readBody, send } from '../e2e/support/site.js';
import { waitFor, type Key, type Session } from './driver.js';
import type { Scenario, ScenarioContext } from './scenarios.js';
import { audit } from './scenarios-a11y.js';
import { approveOnConsentPage } from './steps.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** What the game page records, in `window.game`: times are the page's `performance.now()`. */
interface GameRecord {
  ready: boolean;
  /** When the loop's input listener saw the click. */
  clickAt?: number;
  /** When the loop called ItchOAuth.login(). */
  loginAt?: number;
  /**
   * How many frames had run when the click came, and in which frame the loop called login(): the
   * order of the two, as two clock readings can be equal (WebKit coarsens `performance.now()`).
   */
  clickFrame?: number;
  loginFrame?: number;
  /** Every window.open, when it returned and whether it gave a window. */
  opens: { at: number; got: boolean }[];
  /** How many Continue buttons appeared, and when the first did. */
  overlays: number;
  overlayAt?: number;
  /** The page's own script clicked the Continue button (the attack). */
  attacked?: number;
  /** `success {response}` or `error code`. */
  result?: string;
  /** The same, for the attack's second login() while the button is shown. */
  second?: string;
  /**
   * Every keydown and keyup the game's document saw (the dialog's included), as `keydown Space`,
   * `repeat Space` (a repeated keydown) or `keyup Space`, with ` cancelled` when it was.
   */
  keys: string[];
}

/**
 * The game: a full-window canvas drawn every frame; a pointerdown is queued and handled by the
 * loop (in the next frame, or `delay` ms later), which calls ItchOAuth.login(). With `attack`,
 * the page's own script clicks the Continue button as soon as it appears.
 */
function gamePage(world: PopupWorld): string {
  const client = C.clients.demo;
  const options = {
    clientId: client.clientId,
    redirectUri: `${world.app}/callback.html`,
    baseUrl: world.emulator.url,
    backend: `${world.app}/auth/itch`,
    mode: 'popup',
  };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Canvas game</title>
<style>html, body { margin: 0; height: 100%; overflow: hidden; } canvas { display: block; width: 100vw; height: 100vh; }</style>
<script src="/dist/itch-oauth.iife.js"></script></head><body>
<canvas width="320" height="180"></canvas><output id="result"></output>
<script>
const options = ${JSON.stringify(options)};
const query = new URLSearchParams(location.search);
const delay = Number(query.get('delay') || 0);
const game = (window.game = { seq: 0, ready: false, opens: [], overlays: 0, keys: [] });
// Every change is sent to the game's server, where the test reads it: a driver's script in the
// page would give the page a user activation (puppeteer runs them with one).
const report = () => {
  game.seq++;
  fetch('/record', { method: 'POST', body: JSON.stringify(game), keepalive: true });
};
const open = window.open;
window.open = function (...args) {
  const popup = open.apply(this, args);
  game.opens.push({ at: performance.now(), got: popup !== null });
  report();
  return popup;
};
new MutationObserver((records) => {
  for (const record of records)
    for (const node of record.addedNodes) {
      const root = node.shadowRoot;
      if (!root || !root.querySelector('dialog')) continue;
      game.overlays++;
      game.overlayAt ??= performance.now();
      if (query.has('attack')) {
        const button = root.querySelector('[part=continue]');
        button.click();
        button.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
        root.querySelector('dialog').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
        game.attacked = performance.now();
        // And a second login() while the button is shown.
        ItchOAuth.login(options).then(
          (result) => report((game.second = 'success ' + JSON.stringify(result.response))),
          (error) => report((game.second = 'error ' + error.code)),
        );
      }
      report();
    }
}).observe(document.body, { childList: true });

// After the dialog's own handlers (the events bubble out of its shadow root), so a cancel shows.
for (const type of ['keydown', 'keyup'])
  addEventListener(type, (event) => {
    game.keys.push((event.repeat ? 'repeat' : type) + ' ' + event.code + (event.defaultPrevented ? ' cancelled' : ''));
    report();
  });

const canvas = document.querySelector('canvas');
const context = canvas.getContext('2d');
const input = [];
canvas.addEventListener('pointerdown', () => input.push({ at: performance.now(), frames }));
canvas.addEventListener('pointerdown', () => report());
let due;
let frames = 0;
function frame(now) {
  frames++;
  context.fillStyle = 'hsl(' + (now / 10) % 360 + ' 60% 30%)';
  context.fillRect(0, 0, canvas.width, canvas.height);
  for (const { at, frames: before } of input.splice(0)) {
    Object.assign(game, { clickAt: at, clickFrame: before, loginAt: undefined, loginFrame: undefined, opens: [], overlays: 0, overlayAt: undefined, result: undefined });
    due = at + delay;
  }
  if (due !== undefined && performance.now() >= due) {
    due = undefined;
    game.loginAt = performance.now();
    game.loginFrame = frames;
    ItchOAuth.login(options).then(
      (result) => report((game.result = 'success ' + JSON.stringify(result.response))),
      (error) => report((game.result = 'error ' + error.code)),
    );
    report();
  }
  requestAnimationFrame(frame);
}
requestAnimationFrame(() => {
  game.ready = true;
  report();
  requestAnimationFrame(frame);
});
</script></body></html>`;
}

interface GameWorld {
  world: PopupWorld;
  /** The page of another site that frames the game. */
  top: string;
  /** The game's origin. */
  game: string;
  /** What the game page last reported. */
  record(): GameRecord;
  close(): Promise<void>;
}

/** The popup world (emulator, app and its backend), and the canvas game on a site of its own, framed by another. */
async function startGameWorld(): Promise<GameWorld> {
  let world: PopupWorld | undefined;
  let latest: GameRecord & { seq: number } = { seq: 0, ready: false, opens: [], overlays: 0, keys: [] };
  const game = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/record') {
      const seen = JSON.parse(await readBody(req)) as typeof latest;
      if (seen.seq > latest.seq) latest = seen;
      return send(res, 204, 'text/plain', '');
    }
    if (path.startsWith('/dist/')) return send(res, 200, 'text/javascript', readFileSync(`${root}${path.slice(1)}`, 'utf8'));
    if (path === '/game.html') return send(res, 200, 'text/html', gamePage(world!));
    send(res, 404, 'text/plain', 'not found');
  });
  const top = createServer((req, res) => {
    const search = new URL(req.url ?? '/', 'http://x').search;
    send(
      res,
      200,
      'text/html',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Game page</title>
<style>body { margin: 0; } iframe { border: 0; width: 100vw; height: 100vh; display: block; }</style></head>
<body><iframe title="game" src="${gameUrl}/game.html${search}"></iframe></body></html>`,
    );
  });
  const listen = (server: Server, host: string) =>
    new Promise<string>((resolve) => server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`)));
  // (127.0.0.4: a site of its own, neither the page that frames it nor the app.)
  const gameUrl = await listen(game, '127.0.0.4');
  const topUrl = await listen(top, '127.0.0.1');
  world = await startPopupWorld({ handler: { allowedOrigins: [gameUrl] } });
  return {
    world,
    top: topUrl,
    game: gameUrl,
    record: () => latest,
    close: async () => {
      for (const server of [game, top]) server.closeAllConnections();
      await Promise.all([game, top].map((server) => new Promise((resolve) => server.close(resolve))));
      await world!.close();
    },
  };
}

/** The Continue button (or another `part` of its dialog) inside its shadow root, as each driver's selectors reach into one. */
function continueSelector(session: Session, part = 'continue'): string {
  return session.engine.startsWith('webkit') ? `>>>[part="${part}"]` : `body >>> [part="${part}"]`;
}

/** Opens the framed game with `query`, and waits for its loop to run. */
async function openGame(session: Session, gameWorld: GameWorld, query: string): Promise<string> {
  await session.goto(`${gameWorld.top}/?${query}`);
  const [main] = await session.windows();
  await session.enterFrame('iframe[title="game"]');
  await waitFor('the game loop to run', async () => gameWorld.record().ready === true);
  return main!;
}

/** Whether the browser refused a window.open before the Continue button (it said it was active, yet blocked). */
function refusedFirst(game: GameRecord): string {
  const refused = game.opens.filter((open) => !open.got && (game.overlayAt === undefined || open.at < game.overlayAt));
  return refused.length > 0
    ? ` (the loop's window.open was refused ${Math.round(game.overlayAt! - refused[0]!.at)} ms before the button showed)`
    : '';
}

/** The median of some numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

/** How many logins from the loop `gameLoopNextFrame` times (`LOOP_ROUNDS=9` for a steadier median). */
const ROUNDS = Math.max(1, Number(process.env['LOOP_ROUNDS'] ?? 3));

/**
 * One login from the loop: a real click on the canvas, then the popup, directly or through the
 * Continue button (a real click on it). Returns the popup's handle and what the page recorded.
 */
async function loginFromLoop(
  session: Session,
  gameWorld: GameWorld,
  wait = 10_000,
  /** Audits the Continue button with axe before clicking it (when it is shown). */
  auditFor?: ScenarioContext,
): Promise<{ popup: string; game: GameRecord; throughContinue: boolean; driverMs: number }> {
  const before = new Set(await session.windows());
  const clicked = Date.now();
  await session.click('canvas');
  const opened = async () => (await session.windows()).find((handle) => !before.has(handle));
  // The popup, or the Continue button when the loop's call came without an activation.
  const first = await waitFor(
    'the popup or the Continue button',
    async () => (await opened()) ?? (gameWorld.record().overlays > 0 ? 'continue' : undefined),
    wait,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}; the game reported ${JSON.stringify(gameWorld.record())}`);
  });
  let popup = first;
  const throughContinue = first === 'continue';
  if (throughContinue) {
    if (auditFor) {
      const counts = await audit(session, auditFor, 'the Continue with itch.io dialog');
      assert.ok(counts.shadow > 0, "axe checked nodes inside the Continue dialog's shadow root");
    }
    await session.click(continueSelector(session));
    popup = await waitFor('the popup opened by Continue', opened);
  }
  const driverMs = Date.now() - clicked;
  const game = await waitFor('the page to report the window', async () => {
    const seen = gameWorld.record();
    return seen.opens.some((open) => open.got) ? seen : undefined;
  });
  await session.switchToWindow(popup);
  return { popup, game, throughContinue, driverMs };
}

/** Approves in the popup and waits for the game's promise to resolve with the backend's answer. */
async function approveAndExpectLogin(session: Session, gameWorld: GameWorld, main: string): Promise<void> {
  const { world } = gameWorld;
  await approveOnConsentPage(session, world.emulator.url, C.users.gamer);
  await waitFor('the popup to close itself', async () => (await session.windows()).length === 1, 20_000);
  await session.switchToWindow(main);
  const result = await waitFor('the game to have its answer', async () => gameWorld.record().result, 20_000);
  assert.match(result, /^success /);
  assert.equal((JSON.parse(result.slice('success '.length)) as { user: { id: number } }).user.id, C.users.gamer);
  assert.equal(world.logins.length, 1, 'one login');
  assert.equal(world.logins[0]!.startedFrom, gameWorld.game, "onLogin's startedFrom is the game's origin");
}

/** Closes the popup and waits for the game's login to end (popup_closed). */
async function closeAndSettle(session: Session, gameWorld: GameWorld, main: string): Promise<void> {
  await session.closeWindow();
  await session.switchToWindow(main);
  await session.enterFrame('iframe[title="game"]');
  const result = await waitFor('the game to hear of the closed popup', async () => gameWorld.record().result, 20_000);
  assert.equal(result, 'error popup_closed');
}

const gameLoopNextFrame: Scenario = {
  name: 'canvas game calls login() from its loop the frame after a click: the popup opens (or, where the engine gives the frame no activation, the Continue button does); time from click to window',
  async run(session, context) {
    const gameWorld = await startGameWorld();
    try {
      const main = await openGame(session, gameWorld, 'delay=0');
      const inPage: number[] = [];
      const byDriver: number[] = [];
      const ways = new Set<string>();
      let refusal = '';
      for (let round = 0; round < ROUNDS; round++) {
        const { game, throughContinue, driverMs } = await loginFromLoop(session, gameWorld);
        ways.add(throughContinue ? 'through the Continue button' : 'directly');
        // The window.open that gave the popup, after the loop's call.
        const opened = game.opens.find((open) => open.got);
        assert.ok(opened, `no window.open gave a window: ${JSON.stringify(game)}`);
        assert.ok(game.loginFrame! > game.clickFrame!, `the loop called login() in a frame after the click: ${JSON.stringify(game)}`);
        if (!throughContinue) {
          assert.equal(game.overlays, 0, 'no Continue button was shown');
          assert.equal(game.opens.length, 1, 'one window.open, in the frame after the click');
        } else assert.ok(opened.at >= game.overlayAt!, 'the window opened in the click on Continue');
        if (round === 0) refusal = refusedFirst(game);
        inPage.push(Math.round(opened.at - game.clickAt!));
        byDriver.push(driverMs);
        if (round < ROUNDS - 1) await closeAndSettle(session, gameWorld, main);
      }
      await approveAndExpectLogin(session, gameWorld, main);
      assert.equal(ways.size, 1, `the same way every time: ${[...ways].join(', ')}`);
      context.note(
        `login() in the frame after the click: popup opened ${[...ways][0]}${refusal}; click to window: median ${median(inPage)} ms in the page (${inPage.join(', ')}), ${median(byDriver)} ms as the driver saw it (${byDriver.join(', ')})`,
      );
    } finally {
      await gameWorld.close();
    }
  },
};

const gameLoopTimer: Scenario = {
  name: 'canvas game calls login() 2 s after the click: where the activation expired, the Continue button appears, its real click opens the popup, and the login completes with the backend answer',
  async run(session, context) {
    const gameWorld = await startGameWorld();
    try {
      const main = await openGame(session, gameWorld, 'delay=2000');
      const { game, throughContinue, driverMs } = await loginFromLoop(session, gameWorld, 10_000, context);
      assert.ok(game.loginAt! - game.clickAt! >= 2_000, 'the loop called login() 2 s after the click');
      const opened = game.opens.find((open) => open.got)!;
      if (throughContinue) {
        assert.equal(game.overlays, 1, 'one Continue button');
        assert.ok(game.overlayAt! >= game.loginAt!);
        assert.ok(opened.at >= game.overlayAt!, 'the window opened in the click on Continue');
      } else assert.equal(game.overlays, 0);
      await approveAndExpectLogin(session, gameWorld, main);
      // Asked in the game's window once the login is over: the popup, where the session was, navigates.
      const activation = await session.evaluate(
        () => (navigator as { userActivation?: { isActive: boolean } }).userActivation !== undefined,
      );
      context.note(
        `login() 2 s after the click: popup opened ${throughContinue ? 'through the Continue button' : 'directly (the activation had not expired)'}${refusedFirst(game)}; click to window ${Math.round(opened.at - game.clickAt!)} ms in the page, ${driverMs} ms by the driver${activation ? '' : '; no navigator.userActivation'}`,
      );
    } finally {
      await gameWorld.close();
    }
  },
};

const gameLoopScriptClick: Scenario = {
  name: "canvas game, attack: the game page's own script clicks the Continue button (no real click): no popup, the login waits; a second login() shows no second button",
  async run(session, context) {
    const gameWorld = await startGameWorld();
    try {
      // 6 s: longer than any engine's activation (Chromium's is 5 s), so the button appears in all.
      const main = await openGame(session, gameWorld, 'delay=6000&attack');
      const before = new Set(await session.windows());
      await session.click('canvas');
      await waitFor(
        'the Continue button and the page clicking it',
        async () => {
          const seen = gameWorld.record();
          return seen.attacked !== undefined ? seen : undefined;
        },
        15_000,
      );
      // The page's clicks went nowhere: a second for a popup to appear, then the check.
      // (No script of the driver's in the page from here on: it would give the page an activation.)
      const attackedAt = Date.now();
      await waitFor('a second for a popup to appear', async () => Date.now() - attackedAt >= 1_000);
      const after = gameWorld.record();
      assert.deepEqual(after.opens, [], `window.open was called: ${JSON.stringify(after.opens)}`);
      assert.deepEqual(
        (await session.windows()).filter((handle) => !before.has(handle)),
        [],
        'no window opened',
      );
      assert.equal(after.result, undefined, 'the login still waits for the person');
      assert.equal(after.second, undefined, 'the second login() waits too');
      assert.equal(after.overlays, 1, 'the second login() showed no second button');
      await session.click(continueSelector(session));
      const popup = await waitFor('the popup opened by the real click', async () =>
        (await session.windows()).find((handle) => !before.has(handle)),
      );
      await session.switchToWindow(popup);
      await approveAndExpectLogin(session, gameWorld, main);
      const second = await waitFor('the second login() to settle', async () => gameWorld.record().second);
      assert.equal(second, gameWorld.record().result, 'the second login() got the same answer');
      context.note("the page script's click(), synthetic click and Enter on the Continue button opened nothing");
    } finally {
      await gameWorld.close();
    }
  },
};

/** The Continue dialog in the current frame: `focused` (its Continue button has the focus), `shown`, or `gone`. */
function continueState(): string {
  const root = [...document.body.children].find((element) => element.shadowRoot?.querySelector('dialog'))?.shadowRoot;
  if (!root?.querySelector('dialog')?.open) return 'gone';
  return document.hasFocus() && root.activeElement?.getAttribute('part') === 'continue' ? 'focused' : 'shown';
}

/** `keydown Space, repeat Space cancelled ×5, keyup Space cancelled`: runs of the same event counted. */
function keyRuns(keys: string[]): string {
  const runs: [string, number][] = [];
  for (const key of keys) {
    const last = runs.at(-1);
    if (last?.[0] === key) last[1]++;
    else runs.push([key, 1]);
  }
  return runs.map(([key, count]) => (count > 1 ? `${key} ×${count}` : key)).join(', ') || 'none';
}

/** How many keydowns a held key repeats once the Continue button shows. */
const REPEATS = 5;

const gameLoopHeldKey: Scenario = {
  name: 'canvas game, a key held down since before the Continue button showed (Space, then Enter: keyDown, repeated keyDowns, keyUp) does not press it; a fresh Enter does, and the login completes',
  async run(session, context) {
    const gameWorld = await startGameWorld();
    try {
      // 6 s: longer than any engine's activation (Chromium's and Firefox's are 5 s), counted from
      // the click and the key's first keydown, so the loop's login() shows the button in all.
      const main = await openGame(session, gameWorld, 'delay=6000');
      const outcomes: string[] = [];
      let pressed = false;
      for (const key of ['Space', 'Enter'] satisfies Key[]) {
        const before = new Set(await session.windows());
        const { clickAt, keys } = gameWorld.record();
        await session.click('canvas');
        await session.keyDown(key);
        const down = Date.now();
        // Read from the game's reports: a driver's script in the page before the loop's login()
        // would give the page an activation (puppeteer runs them with one), and no button.
        await waitFor(
          'the Continue button',
          async () => {
            const seen = gameWorld.record();
            return seen.clickAt !== clickAt && seen.overlays > 0;
          },
          15_000,
        );
        await waitFor('the focus on Continue', async () => (await session.evaluate(continueState)) === 'focused');
        // Still down: half a second, then repeated keydowns (a keyboard's auto-repeat; none are
        // sent before the button shows, since each would renew the activation), then up.
        await waitFor('half a second with the key down', async () => Date.now() - down >= 500);
        for (let repeat = 0; repeat < REPEATS; repeat++) await session.keyDown(key);
        await session.keyUp(key);
        const up = Date.now();
        await waitFor('a second for a popup to appear', async () => Date.now() - up >= 1_000);
        const held = Math.round((up - down) / 100) / 10;
        const seen = gameWorld.record();
        const got = seen.keys.slice(keys.length);
        const events = keyRuns(got);
        // The driver's keys reached the game (else nothing would be proven): the keyup, and the
        // repeats where the driver sends them (WebKitGTK's ignores a keyDown of a key already down).
        assert.ok(
          got.some((event) => event.startsWith('keyup ')),
          `the keyup reached the game: ${events}`,
        );
        if (!session.engine.startsWith('webkit'))
          assert.equal(got.filter((event) => event.startsWith('repeat ')).length, REPEATS, `${REPEATS} repeated keydowns: ${events}`);
        const state = await session.evaluate(continueState);
        const popup = (await session.windows()).find((handle) => !before.has(handle));
        if (popup === undefined && seen.opens.length === 0 && state !== 'gone') {
          assert.equal(seen.result, undefined, 'the login still waits for the person');
          outcomes.push(`${key} held ${held} s: not pressed (${events})`);
          // Cancel, for the next key's button; the last button stays for the fresh press.
          if (key === 'Space') {
            await session.click(continueSelector(session, 'dismiss'));
            await waitFor('the cancelled login', async () => gameWorld.record().result === 'error popup_closed');
          }
          continue;
        }
        pressed = true;
        outcomes.push(`${key} held ${held} s: PRESSED Continue (${events}; ${seen.opens.length} window.open, dialog ${state})`);
        // Closed, as the player would, and the login ended, for the next key.
        if (popup !== undefined) {
          await session.switchToWindow(popup);
          await closeAndSettle(session, gameWorld, main);
        } else await waitFor('the login to end', async () => gameWorld.record().result);
      }
      context.note(`${session.engine}: ${outcomes.join('; ')}`);
      assert.ok(!pressed, `a held key pressed the Continue button: ${outcomes.join('; ')}`);

      // A key pressed anew, on the button that has the focus: it counts.
      const before = new Set(await session.windows());
      const { keys } = gameWorld.record();
      await session.press('Enter');
      const popup = await waitFor('the popup opened by a fresh Enter', async () =>
        (await session.windows()).find((handle) => !before.has(handle)),
      );
      context.note(`fresh Enter: ${keyRuns(gameWorld.record().keys.slice(keys.length))}`);
      await session.switchToWindow(popup);
      await approveAndExpectLogin(session, gameWorld, main);
    } finally {
      await gameWorld.close();
    }
  },
};

/** The game-loop logins, in every engine. */
export const GAME_LOOP_SCENARIOS: Scenario[] = [gameLoopNextFrame, gameLoopTimer, gameLoopScriptClick, gameLoopHeldKey];
