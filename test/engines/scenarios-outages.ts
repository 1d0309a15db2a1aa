// The two dead ends that are nobody's fault, in every engine: the site's server (here its popup
// store) cannot answer, `service_unavailable`, and the browser refuses cookies, `cookies_blocked`.
// Each is driven through every game engine's drop-in (engines/*, under the stand-ins of
// test/e2e/support/engine-stand-ins.ts, which mirror what the engine's side does with the
// outcome): a real click in the game, the popup closed for the player, and the game handed the
// code with the player's words. Then the callback page of a redirect login meets each: its words,
// its way on (clicked: where it leads), and axe on it.
import assert from 'node:assert/strict';
import { widget as en } from '../../src/i18n/locales/en.js';
import { brokenStore } from '../e2e/support/broken-store.js';
import { ENGINES, gamePage } from '../e2e/support/engine-stand-ins.js';
import { startEngineWorld, type EngineWorld, type EngineWorldOptions } from '../e2e/support/engine-world.js';
import { flowRecord, send, startSite, type Site } from '../e2e/support/site.js';
import { waitFor, waitForUrl, type Session } from './driver.js';
import type { Scenario, ScenarioContext } from './scenarios.js';
import { audit } from './scenarios-a11y.js';

/** The engine world, with each drop-in's game page at /<engine>.html. */
async function dropInWorld(options?: EngineWorldOptions): Promise<EngineWorld> {
  // (The route runs on requests only, after the world has started.)
  const world: EngineWorld = await startEngineWorld((url, _req, res) => {
    const engine = ENGINES.find((name) => url.pathname === `/${name}.html`);
    if (engine === undefined) return false;
    send(res, 200, 'text/html', gamePage(engine, world.options));
    return true;
  }, options);
  return world;
}

interface Outcome {
  ok: boolean;
  code?: string;
  message?: string;
  playerMessage?: string;
}

/**
 * Each drop-in's game, its Play button clicked as a player does: the outcome the engine's side
 * ends up with is `code`, with the player's sentence for it, and no window is left open.
 */
async function throughEachDropIn(session: Session, context: ScenarioContext, world: EngineWorld, code: keyof typeof en): Promise<void> {
  const [main] = await session.windows();
  for (const engine of ENGINES) {
    await session.goto(`${world.game}/${engine}.html`);
    await waitFor(`the ${engine} game to be ready`, () => session.evaluate(() => (window as { ready?: boolean }).ready === true));
    // Each window the game opens, to say whether it reads as closed to the game if it stays.
    await session.evaluate(() => {
      const page = window as unknown as { opened: (Window | null)[] };
      const open = window.open;
      page.opened = [];
      window.open = (...args) => {
        const popup = open.apply(window, args);
        page.opened.push(popup);
        return popup;
      };
      return true;
    });
    await session.click('#play');
    const outcome = await waitFor(
      `the ${engine} game's outcome`,
      // (`?? false`: WebDriver classic answers undefined as null.)
      () => session.evaluate(() => (window as unknown as { outcomes: Outcome[] }).outcomes[0] ?? false),
      20_000,
    );
    assert.deepEqual(
      { engine, ok: outcome.ok, code: outcome.code, playerMessage: outcome.playerMessage },
      { engine, ok: false, code, playerMessage: en[code] },
    );
    assert.ok(outcome.message, `${engine}: a message for the developer`);
    await waitFor(`the popup of the ${engine} game to be closed for the player`, async () => (await session.windows()).length === 1).catch(
      async (error: unknown) => {
        const closed = await session.evaluate(() =>
          (window as unknown as { opened: (Window | null)[] }).opened.map((popup) => popup?.closed ?? null),
        );
        const left = (await session.windows()).filter((handle) => handle !== main);
        await session.switchToWindow(left[0]!);
        const where = await session.url().catch(String);
        const text = await session.evaluate(() => document.body?.innerText ?? '').catch(String);
        throw new Error(
          `${String(error)}; the windows the game opened read as closed: ${JSON.stringify(closed)}; left open: ${where} "${text}"`,
        );
      },
    );
    await session.switchToWindow(main!);
    context.note(`${engine}: ${code}, "${outcome.playerMessage}"`);
  }
}

/** The way on of the callback page's failure, once the element has settled (the focus on it). */
function wayOn(): { text: string; retry: boolean; back: string | null; focused: string | null } | false {
  const root = document.querySelector('itch-oauth-callback')?.shadowRoot;
  const alert = root?.querySelector('[role=alert]');
  const focused = root?.activeElement?.getAttribute('part') ?? null;
  // (false, not undefined: WebDriver classic answers undefined as null.)
  if (!alert || !focused) return false;
  return {
    text: alert.textContent!.replace(/\s+/g, ' ').trim(),
    retry: root!.querySelector('[part=retry]') !== null,
    back: root!.querySelector('[part=back]')?.getAttribute('href') ?? null,
    focused,
  };
}

/** Follows the callback page's link back, as a click does. */
function clickBack(): true {
  (document.querySelector('itch-oauth-callback')!.shadowRoot!.querySelector('[part=back]') as HTMLAnchorElement).click();
  return true;
}

const RETURN_TO = '/return.html?from=login';

/** The README's callback page (the capture first, the element and the full file at the end), light and dark. */
function callbackPage(site: Site): void {
  site.page = {
    hostile: false,
    heading: '',
    headStart: '<title>Logging in</title><meta name="color-scheme" content="light dark">',
    body: '<itch-oauth-callback></itch-oauth-callback><script src="/dist/itch-oauth.iife.js"></script>',
  };
}

const dropInsUnavailable: Scenario = {
  name: "outage, each engine's drop-in: the site's popup store down, the opener learns it at once, closes the popup and the game gets service_unavailable with the player's words",
  async run(session, context) {
    const world = await dropInWorld({ handler: { store: brokenStore() } });
    try {
      await throughEachDropIn(session, context, world, 'service_unavailable');
    } finally {
      await world.close();
    }
  },
};

const dropInsEnglishAlone: Scenario = {
  name: "English built in, each engine's drop-in: only the script files served (locales/ answers 404) and the site's server down, the game gets service_unavailable with the player's English words, never a code",
  async run(session, context) {
    const world = await dropInWorld({ locales: false });
    world.backendDown = true;
    try {
      await throughEachDropIn(session, context, world, 'service_unavailable');
    } finally {
      await world.close();
    }
  },
};

const callbackUnavailable: Scenario = {
  name: "outage, the callback page: the site's server answers 503 to the token; not answering, try again in a minute, with Try again and a link back to where the login started, which leads there; axe finds nothing",
  async run(session, context) {
    const site = await startSite();
    try {
      callbackPage(site);
      site.backendStatuses = [503];
      await session.goto(`${site.url}/game.html`);
      await session.evaluate((key: string, value: string) => sessionStorage.setItem(key, value), ...flowRecord(site));
      await session.goto(`${site.authUrl}/user/oauth?redirect_uri=${encodeURIComponent(`${site.url}/callback.html`)}&state=S1`);
      // (The capture tries four times over about 4 s before it gives up.)
      const shown = await waitFor('the outage, settled', () => session.evaluate(wayOn), 20_000);
      assert.deepEqual(shown, { text: en.service_unavailable + en.retry + en.back, retry: true, back: RETURN_TO, focused: 'retry' });
      const counts = await audit(session, context, 'callback service_unavailable');
      assert.ok(counts.shadow > 0, "axe checked nodes inside the callback's shadow root");
      await session.evaluate(clickBack);
      await waitForUrl(session, 'where the login started', (url) => url.href === `${site.url}${RETURN_TO}`);
    } finally {
      await site.close();
    }
  },
};

const cookiesBlocked: Scenario = {
  name: "blocked cookies, each engine's drop-in and the callback page: the popup's start page finds cookies off, the game gets cookies_blocked with the player's words; the callback page names the setting where storage is refused, and links back to the site",
  session: { blockCookies: true },
  async run(session, context) {
    const world = await dropInWorld();
    try {
      await throughEachDropIn(session, context, world, 'cookies_blocked');
    } finally {
      await world.close();
    }

    // The callback page of a redirect login, opened in this browser.
    const site = await startSite();
    try {
      callbackPage(site);
      await session.goto(`${site.url}/start.html`);
      const storage = await session.evaluate(() => {
        try {
          sessionStorage.setItem('probe', '1');
          return 'kept';
        } catch {
          return 'refused';
        }
      });
      await session.goto(`${site.url}/callback.html#access_token=T&state=S1`);
      const shown = await waitFor('the callback page, settled', () => session.evaluate(wayOn), 20_000);
      assert.deepEqual(site.backendCalls, [], 'nothing was sent');
      if (storage === 'refused') {
        assert.deepEqual(shown, { text: en.cookies_blocked + en.back, retry: false, back: '/', focused: 'back' });
      } else {
        // Cookies refused, storage kept: the login needs no cookie on this page, and this tab
        // started no login: the reopened link's words.
        assert.deepEqual(shown, { text: en.state_used + en.back, retry: false, back: '/', focused: 'back' });
        context.note(
          `${session.engine} refuses cookies but keeps sessionStorage: the callback page needs no cookie, and says the link works only in its own tab`,
        );
      }
      const counts = await audit(
        session,
        context,
        `callback ${storage === 'refused' ? 'cookies_blocked' : 'state_mismatch (a reopened link)'}`,
      );
      assert.ok(counts.shadow > 0, "axe checked nodes inside the callback's shadow root");
      await session.evaluate(clickBack);
      await waitForUrl(session, "the site's root", (url) => url.href === `${site.url}/`);
    } finally {
      await site.close();
    }
  },
};

/** service_unavailable and cookies_blocked, in every engine. */
export const OUTAGE_SCENARIOS: Scenario[] = [dropInsUnavailable, dropInsEnglishAlone, callbackUnavailable, cookiesBlocked];
