// The flows where engines differ, written once and run in every engine through `Session`
// (test/engines/driver.ts), on the servers of the e2e suite: the demo (`startDemo`), the game site
// (test/e2e/support/site.ts) and the three-site popup world (test/e2e/support/popup-world.ts).
// Every wait is for a signal (an address, a text, a request the server saw), never for a time.
// Lean on purpose: about one page load per step that proves something.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { RunningDemo } from '../../demo/serve.js';
import { popupBindingOf, popupStateOf } from '../../src/core/state.js';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { startPopupWorld, type PopupWorld } from '../e2e/support/popup-world.js';
import { HOSTILE_KINDS, STRICT_CSP, flowRecord, startSite, type Site } from '../e2e/support/site.js';
import { newWindowFrom, waitFor, waitForText, waitForUrl, type Session, type SessionOptions } from './driver.js';
import { GAME_LOOP_SCENARIOS } from './scenarios-game-loop.js';
import { trustedTypesScriptFiles } from './scenarios-trusted-types.js';
import { approveOnConsentPage, buttonReady, openFramedGame, POPUP_BLOCKER_PROBE } from './steps.js';
import { callback } from '../../src/i18n/locales/en.js';

export interface ScenarioContext {
  /** The demo, started once for the whole run. */
  demo(): Promise<RunningDemo>;
  /** A line for the report: what this engine could not check, and why. */
  note(text: string): void;
}

export interface Scenario {
  name: string;
  /** How its session's browser is set up, when not as the engine's others are (cookies blocked). */
  session?: SessionOptions;
  run(session: Session, context: ScenarioContext): Promise<void>;
}

const TOKEN = 'itchKEY_engines_0123456789abcdef';
const DARK_AND_LIGHT = '<meta name="color-scheme" content="light dark">';

/** No console error or warning, where the engine can report them; else a note that says so. */
function expectCleanConsole(session: Session, context: ScenarioContext, ignore?: RegExp): void {
  if (session.problems === undefined) {
    context.note(
      `console not checked: ${session.engine} is driven over WebDriver classic, which cannot read the console (WebKitGTK's driver has no BiDi)`,
    );
    return;
  }
  assert.deepEqual(
    session.problems.filter((problem) => !ignore?.test(problem)),
    [],
    'the console stays clean',
  );
}

/** Opens the game site's page and saves the flow record the button would have saved. */
async function startFlow(session: Session, site: Site): Promise<void> {
  await session.goto(`${site.url}/game.html`);
  await session.evaluate((key: string, value: string) => sessionStorage.setItem(key, value), ...flowRecord(site));
}

/** The kinds of hostile script that reported to the site so far; none may have seen the token. */
function reportingKinds(site: Site): string[] {
  for (const report of site.collected) assert.ok(!report.includes(TOKEN), `a hostile script saw the token: ${report.slice(0, 300)}`);
  return [...new Set(site.collected.map((report) => JSON.parse(report.slice(report.indexOf(' ') + 1)).kind as string))].sort();
}

const redirectLogin: Scenario = {
  name: 'redirect login on the demo: the token gone from the address, history and timeline; Back reaches no token',
  async run(session, context) {
    const demo = await context.demo();
    const emulator = demo.emulator!;
    const keysBefore = emulator.store.apiKeys.length;
    await session.goto(`${demo.url}/`);
    await buttonReady(session, '.hero itch-login-button');
    await session.click('.hero itch-login-button');
    await approveOnConsentPage(session, emulator.url, C.users.gamer);
    await waitForUrl(session, 'the account page', (url) => url.href === `${demo.url}/account.html`);
    await waitForText(session, '#profile-name', "the player's name", (text) => text === 'Mossy Pine');
    assert.equal(emulator.store.apiKeys.length, keysBefore + 1, 'one token issued');
    const token = emulator.store.apiKeys.at(-1)!.key;

    const traces = await session.evaluate(() =>
      JSON.stringify({
        href: location.href,
        state: history.state,
        navigationEntries: performance.getEntriesByType('navigation').map((entry) => entry.name),
        timeline: performance.getEntries().map((entry) => entry.name),
        navigationApi:
          'navigation' in window
            ? (window as unknown as { navigation: { entries(): { url: string }[] } }).navigation.entries().map((entry) => entry.url)
            : 'absent',
      }),
    );
    assert.ok(!traces.includes(token) && !traces.includes('access_token'), `the token is in ${traces}`);
    if (traces.includes('"navigationApi":"absent"')) context.note('no Navigation API in this engine: its entries are not checked');

    await session.back();
    const previous = await waitForUrl(session, 'the page before the account page', (url) => url.pathname !== '/account.html');
    assert.ok(!previous.includes(token) && !previous.includes('access_token'), `Back reached ${previous}`);
    assert.notEqual(new URL(previous).pathname, '/callback.html', 'the callback page is not in the history');
    expectCleanConsole(session, context);
  },
};

const pendingNoScripts: Scenario = {
  name: 'pending view: while the backend holds the POST, no later script of the token document runs',
  async run(session, context) {
    const site = await startSite();
    let release = () => {};
    site.backendHold = new Promise<void>((resolve) => (release = resolve));
    try {
      site.page = { headStart: DARK_AND_LIGHT };
      await startFlow(session, site);
      await session.start(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
      await waitFor('the backend to hold the POST', async () => site.backendCalls.length === 1);
      await waitForText(session, 'output', 'the pending view', (text) => text === 'Signing you in…');
      // Parsed to the end, and the capture's is the only script element in the document: the
      // hostile scripts after it became text, so none of them can run, now or later.
      const parsed = await waitFor('the document to be complete', () =>
        session.evaluate(() =>
          document.readyState === 'complete' ? { scripts: document.scripts.length, href: location.href } : undefined,
        ),
      );
      assert.equal(parsed.scripts, 1);
      assert.ok(!parsed.href.includes(TOKEN), `the address still holds the token: ${parsed.href}`);
      assert.deepEqual(reportingKinds(site), []);
      release();
      await waitForUrl(session, 'the return-to', (url) => url.href === `${site.url}/return.html?from=login`);
      assert.equal(site.backendCalls.length, 1);
      assert.deepEqual(reportingKinds(site), []);
      expectCleanConsole(session, context);
    } finally {
      release();
      await site.close();
    }
  },
};

const pendingStrictCsp: Scenario = {
  name: "pending view under the README's CSP with Trusted Types: no violation (reports checked by a control)",
  async run(session, context) {
    const site = await startSite();
    let release = () => {};
    site.backendHold = new Promise<void>((resolve) => (release = resolve));
    // Violations are reported to the site: every engine sends reports, whether or not its
    // console can be read.
    const policy = `${STRICT_CSP}; report-uri /csp-report`;
    try {
      site.page = {
        noRedirect: true,
        hostile: false,
        headStart: DARK_AND_LIGHT,
        headers: { 'Content-Security-Policy': policy },
        body: '<itch-oauth-callback no-redirect></itch-oauth-callback><script src="/dist/itch-oauth.iife.js"></script>',
      };
      await startFlow(session, site);
      await session.start(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
      await waitFor('the backend to hold the POST', async () => site.backendCalls.length === 1);
      await waitForText(session, 'output', 'the pending view', (text) => text === 'Signing you in…');
      release();
      await waitForUrl(session, 'the clean callback page', (url) => url.href === `${site.url}/callback.html`);
      await waitFor('the callback element to show the login', () =>
        session.evaluate(() => /logged in/i.test(document.querySelector('itch-oauth-callback')?.shadowRoot?.textContent ?? '')),
      );
      const trustedTypes = await session.evaluate(() => typeof (window as { trustedTypes?: unknown }).trustedTypes !== 'undefined');
      if (!trustedTypes) context.note(`${session.engine} has no Trusted Types: only script-src is enforced here`);
      expectCleanConsole(session, context);

      // The control: an inline script under the same policy is blocked and reported by this
      // engine. Reports are sent in order, so the control's arriving means none came before it.
      site.page = {
        capture: 'none',
        hostile: false,
        headers: { 'Content-Security-Policy': policy },
        body: '<script>document.title = "inline script ran";</script>',
      };
      await session.goto(`${site.url}/callback.html?control`);
      await waitFor('the control violation to be reported', async () => site.cspReports.length > 0);
      assert.notEqual(await session.evaluate(() => document.title), 'inline script ran');
      assert.equal(site.cspReports.length, 1, `violations: ${site.cspReports.join('\n')}`);
      assert.match(site.cspReports[0]!, /callback\.html\?control/);
    } finally {
      release();
      await site.close();
    }
  },
};

const hostileControl: Scenario = {
  name: 'hostile probes, control: without the capture, every kind of script reports the token',
  async run(session) {
    const site = await startSite();
    try {
      site.page = { capture: 'none' };
      await startFlow(session, site);
      await session.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
      await waitFor(
        'every kind of probe to report',
        async () =>
          new Set(site.collected.map((report) => JSON.parse(report.slice(report.indexOf(' ') + 1)).kind)).size === HOSTILE_KINDS.length,
      );
      assert.ok(
        site.collected.some((report) => report.includes(TOKEN)),
        'the probes work in this engine: they found the token',
      );
    } finally {
      await site.close();
    }
  },
};

const hostileCapture: Scenario = {
  name: 'hostile probes behind the capture: every kind runs in the clean document, none sees the token',
  async run(session, context) {
    const site = await startSite();
    try {
      site.page = { capture: 'capture', noRedirect: true };
      await startFlow(session, site);
      await session.start(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
      await waitFor('the POST', async () => site.backendCalls.length === 1);
      await waitForUrl(session, 'the clean callback page', (url) => url.href === `${site.url}/callback.html`);
      await waitFor(
        'every kind of probe to report from the clean document',
        async () => reportingKinds(site).length === HOSTILE_KINDS.length,
      );
      assert.deepEqual(reportingKinds(site), [...HOSTILE_KINDS].sort());
      expectCleanConsole(session, context);
    } finally {
      await site.close();
    }
  },
};

const framedPopupLogin: Scenario = {
  name: "framed game (cross-site, storage and cookies partitioned, popup blocker on) logs in through a popup; the token stays out of the game's side",
  async run(session, context) {
    const world = await startPopupWorld();
    try {
      // The popup blocker is on in every engine, as players have it (puppeteer-session.ts,
      // webkit-session.ts): a window.open without a click is refused.
      await session.goto(POPUP_BLOCKER_PROBE);
      assert.equal(
        await session.evaluate(() => document.title),
        'blocked',
        'the popup blocker is off: the popup tests prove less than they seem',
      );

      // The game's site, opened top-level, keeps a value in its first-party storage.
      await session.goto(`${world.game}/game.html`);
      await session.evaluate(() => localStorage.setItem('first-party', 'yes'));

      const main = await openFramedGame(session, world);
      // Framed under another site it has other storage, and a cookie it sets stays in the frame's
      // partition (or is refused): partitioning is really on in this engine.
      const framed = await session.evaluate(() => {
        document.cookie = 'framed=yes; Path=/';
        return { local: localStorage.getItem('first-party') };
      });
      assert.equal(framed.local, null, "the framed game sees its site's first-party storage: storage is not partitioned");

      const popup = await newWindowFrom(session, () => session.click('itch-login-button'));
      await session.switchToWindow(popup);
      await approveOnConsentPage(session, world.emulator.url, C.users.gamer);
      await session.switchToWindow(main);
      await session.enterFrame('iframe[title="game"]');
      const result = await waitForText(session, '#result', 'the outcome', (text) => text !== '', 20_000);
      assert.match(result, /^itch-login-success /);
      assert.equal(JSON.parse(result.slice(result.indexOf(' ') + 1)).response.user.id, C.users.gamer);
      await waitFor('the popup to close itself', async () => (await session.windows()).length === 1);
      assert.equal(world.logins.length, 1);
      assert.equal(world.logins[0]!.startedFrom, world.game, "onLogin's startedFrom is the framed game's origin");
      await waitFor('the probes to report', async () => world.collected.length > 0);
      for (const report of world.collected)
        assert.ok(!report.includes(world.logins[0]!.token), `a probe saw the token: ${report.slice(0, 300)}`);
      expectCleanConsole(session, context);

      // Back on the game's own site, top-level: the cookie set in the frame is not there.
      await session.leaveFrames();
      await session.goto(`${world.game}/game.html`);
      const firstParty = await session.evaluate(() => document.cookie);
      assert.ok(
        !firstParty.includes('framed=yes'),
        `the framed game's cookie reached its first-party jar: cookies are not partitioned (${firstParty})`,
      );
    } finally {
      await world.close();
    }
  },
};

/** How many closes of each kind `popupClosed` times (`CLOSES=20` for a median worth the name). */
const CLOSES = Math.max(1, Number(process.env['CLOSES'] ?? 1));

/** The median of some numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

/**
 * Opens the popup from the framed game, lets `before` do what the player does in it, closes it,
 * and returns how long the game took to report `popup_closed` after the close.
 */
async function closedWithin(session: Session, world: PopupWorld, before: (clickedAt: number) => Promise<void>): Promise<number> {
  const main = await openFramedGame(session, world);
  const clickedAt = Date.now();
  const popup = await newWindowFrom(session, () => session.click('itch-login-button'));
  await session.switchToWindow(popup);
  await before(clickedAt);
  const closedAt = Date.now();
  await session.closeWindow();
  await session.switchToWindow(main);
  await session.enterFrame('iframe[title="game"]');
  const result = await waitForText(session, '#result', 'the outcome', (text) => text !== '', 20_000);
  const took = Date.now() - closedAt;
  assert.match(result, /^itch-login-error .*"code":"popup_closed"/);
  await session.leaveFrames();
  return took;
}

const popupClosed: Scenario = {
  name: 'popup closed by the player at 0.5 s, at 4 s and after Deny: the game reports popup_closed within seconds, nobody is logged in',
  async run(session, context) {
    const world = await startPopupWorld();
    try {
      // The times are the player's (since the click), not guesses at how long something takes.
      const since = (clickedAt: number, ms: number): Promise<void> =>
        waitFor(`${ms} ms since the click`, async () => Date.now() - clickedAt >= ms, ms + 5_000).then(() => undefined);
      const kinds: [string, (clickedAt: number) => Promise<void>][] = [
        ['closed at 0.5 s', (clickedAt) => since(clickedAt, 500)],
        ['closed at 4 s', (clickedAt) => since(clickedAt, 4_000)],
        [
          'closed 1 s after Deny',
          async () => {
            await waitForUrl(
              session,
              "the emulator's consent page",
              (url) => url.origin === world.emulator.url && url.pathname === '/user/oauth',
            );
            await session.click('button[value="deny"]');
            await waitForText(session, '#close-note', 'that the window can be closed', (text) =>
              text.includes('You can close this window'),
            );
            const deniedAt = Date.now();
            await since(deniedAt, 1_000);
          },
        ],
      ];
      for (const [kind, before] of kinds) {
        const times: number[] = [];
        for (let round = 0; round < CLOSES; round++) times.push(await closedWithin(session, world, before));
        context.note(`${kind}: popup_closed after a median ${median(times)} ms over ${times.length} (${times.join(', ')})`);
        assert.ok(median(times) < 4_000, `${kind}: popup_closed took ${median(times)} ms`);
      }
      assert.equal(world.logins.length, 0);
    } finally {
      await world.close();
    }
  },
};

const popupRefusalPage: Scenario = {
  name: 'popup severed by COOP, not an owner: the popup says so in plain words with Close, nothing in it leads to the backend; Close closes it',
  async run(session) {
    const world = await startPopupWorld({
      coop: true,
      callbackAttributes: 'store-url="https://pixelforge.itch.io/starfall-keep"',
      handler: { ownership: { gameIds: [2001], apiKey: C.apiKeys.developer, require: true } },
    });
    try {
      const main = await openFramedGame(session, world);
      const popup = await newWindowFrom(session, () => session.click('itch-login-button'));
      await session.switchToWindow(popup);
      await approveOnConsentPage(session, world.emulator.url, C.users.newcomer);
      await waitForUrl(session, 'the callback page', (url) => url.origin === world.app && url.pathname === '/callback.html');
      const page = await waitFor(
        'the refusal page',
        () =>
          session.evaluate(() => {
            const root = document.querySelector('itch-oauth-callback')?.shadowRoot;
            const close = root?.querySelector('[part=close]');
            // (false, not undefined: WebDriver classic answers undefined as null.)
            if (!root || !close) return false;
            const targets = [...root.querySelectorAll('a')]
              .map((a) => a.href)
              .concat(
                [...document.querySelectorAll('a, form')].map((e) =>
                  e instanceof HTMLFormElement ? e.action : (e as HTMLAnchorElement).href,
                ),
              );
            return {
              text: root.textContent!.replace(/\s+/g, ' '),
              close: close.textContent,
              retry: root.querySelector('[part=retry]') !== null,
              targets,
            };
          }),
        20_000,
      );
      assert.match(page.text, /You need to own this game on itch\.io to continue\./);
      assert.match(page.text, /log out there to use the account that owns it/);
      assert.equal(page.close, 'Close');
      assert.equal(page.retry, false, 'no Try again');
      for (const target of page.targets) assert.notEqual(new URL(target).origin, world.app, `${target} leads to the backend`);
      // (Close is in the element's shadow root, where the driver's selectors do not reach.)
      await session.evaluate(() =>
        (document.querySelector('itch-oauth-callback')!.shadowRoot!.querySelector('[part=close]') as HTMLButtonElement).click(),
      );
      await waitFor('the popup to close on Close', async () => (await session.windows()).length === 1);
      await session.switchToWindow(main);
      await session.enterFrame('iframe[title="game"]');
      const result = await waitForText(session, '#result', 'the outcome', (text) => text !== '', 20_000);
      assert.match(result, /^itch-login-error .*"code":"not_owner"/);
    } finally {
      await world.close();
    }
  },
};

/**
 * Puts in the framed game a button that opens the popup login of a pair the test made, and
 * answers the start page as `startLogin` does (src/core/login.ts): to the popup it opened, on the
 * backend's origin, with the state and its binding. It neither polls nor collects: the test
 * decides who collects, and when.
 */
function installKnownOpener(startUrl: string, state: string, binding: string): true {
  const backend = new URL(startUrl).origin;
  let popup: Window | null = null;
  addEventListener('message', (event) => {
    const data = event.data as { itchOAuth?: unknown; state?: unknown } | null;
    if (event.origin !== backend || event.source !== popup || data?.itchOAuth !== 'popup-start' || data.state !== state) return;
    (event.source as Window).postMessage({ itchOAuth: 'popup-opener', state, binding }, event.origin);
  });
  const button = document.createElement('button');
  button.id = 'known-pair';
  button.textContent = 'Log in (known pair)';
  button.onclick = () => {
    popup = window.open(startUrl, '_blank', 'popup,width=600,height=720');
  };
  document.body.append(button);
  return true;
}

/** Collects the popup login of `verifier` from the current frame, as the opener's own poll does; the answer lands in `window.__collected`. */
function collectFromPage(backend: string, verifier: string): true {
  const page = window as unknown as { __collected?: { status: number; body: unknown } | { failed: string } };
  fetch(backend, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ popup_verifier: verifier }),
    credentials: 'same-origin',
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
  }).then(
    async (answer) => (page.__collected = { status: answer.status, body: await answer.json().catch(() => null) }),
    (error: unknown) => (page.__collected = { failed: String(error) }),
  );
  return true;
}

const framedStartedFrom: Scenario = {
  name: "framed game's popup login: onLogin's startedFrom is the game's origin; the verifier without Origin or with the app's forged is refused 403, the game's own collection succeeds",
  async run(session, context) {
    const world = await startPopupWorld();
    try {
      const main = await openFramedGame(session, world);
      // The pair a real opener keeps in its memory, held by the test so that it can try the
      // verifier from outside a browser too.
      const verifier = randomBytes(32).toString('base64url');
      const binding = await popupBindingOf(verifier);
      const state = await popupStateOf(verifier);
      const query = new URLSearchParams({
        client_id: C.clients.demo.clientId,
        redirect_uri: `${world.app}/callback.html`,
        scope: 'profile:me',
        state,
      });
      const backend = `${world.app}/auth/itch`;
      await session.evaluate(installKnownOpener, `${backend}?${query}`, state, binding);

      // A real click in the framed game (the popup blocker needs its activation) opens the start
      // page; the start page is answered by the game, binds, and goes on to itch.io.
      const popup = await newWindowFrom(session, () => session.click('#known-pair'));
      await session.switchToWindow(popup);
      await approveOnConsentPage(session, world.emulator.url, C.users.gamer);
      await waitFor('the deposit', async () => world.deposits.length > 0, 20_000);
      assert.deepEqual(world.deposits, [202], 'the callback deposited the login');

      // While the login waits: the verifier alone, sent by a program (no Origin) or under a
      // forged Origin (the app's own; the page that frames the game, which the app does not
      // list and so refuses before looking at the login), collects nothing and leaves the login
      // where it is (the Origin header: RFC 6454 section 7, https://fetch.spec.whatwg.org/#origin-header).
      for (const origin of [undefined, world.app, world.top]) {
        const answer = await fetch(backend, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...(origin === undefined ? {} : { Origin: origin }) },
          body: JSON.stringify({ popup_verifier: verifier }),
        });
        const body = (await answer.json()) as { user?: unknown; code?: string };
        assert.equal(answer.status, 403, `collecting with Origin ${origin}: ${JSON.stringify(body)}`);
        if (origin !== world.top) assert.equal(body.code, 'state_mismatch', `collecting with Origin ${origin}: ${JSON.stringify(body)}`);
        assert.equal(body.user, undefined, `collecting with Origin ${origin}`);
        assert.equal(answer.headers.get('set-cookie'), null, `collecting with Origin ${origin}`);
      }
      assert.equal(world.logins.length, 0, 'onLogin has not run for a refused collection');

      // The game collects, from its frame, with its own Origin: the login is its.
      await session.switchToWindow(main);
      await session.enterFrame('iframe[title="game"]');
      await session.evaluate(collectFromPage, backend, verifier);
      const collected = await waitFor("the game's collection", () =>
        // (`?? false`: WebDriver hands back a missing value as null.)
        session.evaluate(
          () => (window as unknown as { __collected?: { status?: number; body?: unknown; failed?: string } }).__collected ?? false,
        ),
      );
      assert.equal(collected.failed, undefined, `the game's collection failed: ${collected.failed}`);
      assert.equal(collected.status, 200, `the game's collection: ${JSON.stringify(collected)}`);
      assert.equal((collected.body as { user?: { id?: number } }).user?.id, C.users.gamer);
      assert.equal(world.logins.length, 1);
      assert.equal(world.logins[0]!.startedFrom, world.game, "startedFrom is the framed game's origin");
      assert.notEqual(world.logins[0]!.startedFrom, world.app);
      expectCleanConsole(session, context);
    } finally {
      await world.close();
    }
  },
};

/** The demo's framed game, logged in through its popup: the game's view of the stars it carries. */
async function framedDemoGameLogin(session: Session, demoUrl: string, emulatorUrl: string, userId: number): Promise<void> {
  // A load of the page, also when it is open already (a goto to the same address with a fragment would not reload it).
  await session.leaveFrames();
  await session.goto('about:blank');
  await session.goto(`${demoUrl}/#play`);
  const windows = await session.windows();
  assert.equal(windows.length, 1, 'no window of an earlier login is still open');
  const [main] = windows;
  await session.enterFrame('iframe.game-frame');
  await waitFor('the game to be ready', () =>
    session.evaluate(() => document.querySelector<HTMLElement>('.game')?.dataset['ready'] === 'true'),
  );
  // The page scrolled to #play (smoothly, where it does): a click while the frame still moves hits
  // the spot the game has just left. One click, once the frame is where the driver aims.
  await session.leaveFrames();
  await waitFor('the scroll to #play to settle', () =>
    session.evaluate(() => {
      const top = document.getElementById('play')!.getBoundingClientRect().top;
      return Math.abs(top) < 1 || Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight;
    }),
  );
  await session.enterFrame('iframe.game-frame');
  const popup = await newWindowFrom(session, () => session.click('[data-login]')).catch(async (error: unknown) => {
    const status = await session.evaluate(() => document.querySelector('[data-status]')?.textContent ?? '(no status)');
    throw new Error(`${String(error)}; the game says: ${status}`);
  });
  await session.switchToWindow(popup);
  await approveOnConsentPage(session, emulatorUrl, userId);
  await waitFor('the popup to close itself', async () => (await session.windows()).length === 1, 20_000);
  await session.switchToWindow(main!);
  await session.enterFrame('iframe.game-frame');
  await waitFor(
    'the game to be signed in',
    () => session.evaluate(() => document.querySelector<HTMLElement>('.game')?.dataset['signedIn'] === 'true'),
    20_000,
  );
}

const framedGameProgress: Scenario = {
  name: "framed demo game (another site) saves and loads its progress through the site's API with its game token, over a reload and a second login",
  async run(session, context) {
    const demo = await context.demo();
    const emulator = demo.emulator!;
    // A player no other scenario logs in with in the game, and another per engine column would
    // share the demo's saves: the count is read, never assumed.
    const player = C.users.newcomer;
    await framedDemoGameLogin(session, demo.url, emulator.url, player);
    const status = await waitForText(session, '[data-status]', 'the load of the saves', (text) =>
      /^(Signed in to the game|Welcome back)/.test(text),
    );
    const before = Number(await session.evaluate(() => document.querySelector('[data-stars]')!.textContent));
    if (status.startsWith('Welcome back')) assert.match(status, new RegExp(`your ${before} saved stars`));
    for (let i = 0; i < 3; i++) await session.click('[data-catch]');
    await session.click('[data-save]');
    // The save is a PUT to /api/game/progress, which only a game token opens (`route({ allow: ['game'] })`).
    await waitForText(session, '[data-status]', 'the save', (text) => text === `Saved: ${before + 3} stars.`);

    // The game keeps its token in memory: a reload of the page logs it out, its saves stay on the site.
    await session.leaveFrames();
    await framedDemoGameLogin(session, demo.url, emulator.url, player);
    await waitForText(session, '[data-status]', 'the saves, loaded with the new game token', (text) =>
      text.startsWith(`Welcome back: your ${before + 3} saved stars are here.`),
    );
    assert.equal(await session.evaluate(() => document.querySelector('[data-stars]')!.textContent), String(before + 3));
    await session.leaveFrames();
  },
};

export const SCENARIOS: Scenario[] = [
  redirectLogin,
  pendingNoScripts,
  pendingStrictCsp,
  trustedTypesScriptFiles,
  hostileControl,
  hostileCapture,
  framedPopupLogin,
  framedStartedFrom,
  popupClosed,
  popupRefusalPage,
  framedGameProgress,
  ...GAME_LOOP_SCENARIOS,
];

/** What <itch-oauth-callback> says for state_mismatch (as in test/e2e/popup-binding.spec.ts). */
// A refused popup state says what such a link does (it works once, where the login started), as
// redirect mode does, and never that the player is logged in.
const STATE_MISMATCH_WORDS = callback.state_used;

/** The attacker's pair: a verifier it keeps, and the state made from it. */
async function attackerPair(): Promise<{ verifier: string; state: string }> {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, state: await popupStateOf(verifier) };
}

/** The attacker collects with its verifier, claiming every Origin it might: nothing comes back. */
async function expectAttackerCollectsNothing(world: PopupWorld, verifier: string): Promise<void> {
  for (const origin of [undefined, world.app, world.game, world.evil]) {
    const answer = await fetch(`${world.app}/auth/itch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(origin === undefined ? {} : { Origin: origin }) },
      body: JSON.stringify({ popup_verifier: verifier }),
    });
    const body = (await answer.json()) as { user?: unknown };
    assert.notEqual(answer.status, 200, `collecting with Origin ${origin}`);
    assert.equal(body.user, undefined, `collecting with Origin ${origin}`);
    assert.equal(answer.headers.get('set-cookie'), null);
  }
  assert.deepEqual(world.logins, [], 'onLogin never ran');
}

const attackerLink: Scenario = {
  name: 'attack: a link to itch.io with an attacker-picked state; the victim approves, the callback refuses, the attacker collects nothing',
  async run(session) {
    const world = await startPopupWorld();
    try {
      const { verifier, state } = await attackerPair();
      const query = new URLSearchParams({
        client_id: C.clients.demo.clientId,
        redirect_uri: `${world.app}/callback.html`,
        response_type: 'token',
        scope: 'profile:me',
        state,
      });
      await session.goto(`${world.emulator.url}/user/oauth?${query}`);
      await approveOnConsentPage(session, world.emulator.url, C.users.gamer);
      await waitForUrl(session, 'the clean callback page', (url) => url.href === `${world.app}/callback.html`);
      await waitFor('the callback to refuse the state', () =>
        session.evaluate(
          (words: string) => (document.querySelector('itch-oauth-callback')?.shadowRoot?.textContent ?? '').includes(words),
          STATE_MISMATCH_WORDS,
        ),
      );
      assert.deepEqual(world.deposits, [403], 'the deposit was refused');
      await expectAttackerCollectsNothing(world, verifier);
    } finally {
      await world.close();
    }
  },
};

const hostileOpener: Scenario = {
  name: "attack: a page on an unlisted site opens the app's popup start page and answers its check itself; no login",
  async run(session) {
    const world = await startPopupWorld();
    try {
      const { verifier } = await attackerPair();
      await session.goto(`${world.evil}/open.html?verifier=${verifier}`);
      await waitFor("the attacker's page to be ready", () => session.evaluate(() => document.body.dataset['ready'] === 'yes'));
      const popup = await newWindowFrom(session, () => session.click('#go'));
      await session.switchToWindow(popup);
      await waitForText(session, '[role="status"], output', 'the refusal', (text) =>
        text.includes('is not allowed to log in to this site'),
      );
      assert.ok((await session.url()).startsWith(world.app), 'never went on to itch.io');
      assert.ok(
        world.refusals.join('\n').includes(`(${JSON.stringify(world.evil)}) is not on this origin nor in allowedOrigins`),
        world.refusals.join('\n'),
      );
      await expectAttackerCollectsNothing(world, verifier);
    } finally {
      await world.close();
    }
  },
};

/**
 * Attacks on the popup binding, in every engine: a link with a state the attacker chose collects
 * nothing; a hostile opener on a site not in `allowedOrigins` gets nothing. (The other attacks,
 * and the cross-origin-isolated game, are in test/e2e/popup-binding.spec.ts, in Chromium.)
 */
export const POPUP_BINDING_ATTACKS: Scenario[] = [attackerLink, hostileOpener];
SCENARIOS.push(...(await import('./scenarios-a11y.js')).A11Y_SCENARIOS);
SCENARIOS.push(...(await import('./scenarios-markup.js')).MARKUP_SCENARIOS);
SCENARIOS.push(...(await import('./scenarios-outages.js')).OUTAGE_SCENARIOS);
