// Chromium (CDP) and Firefox (WebDriver BiDi) through puppeteer-core: one browser per run, a
// fresh browser context (its own cookies and storage) per session.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type BrowserContext, type Frame, type LaunchOptions, type Page } from 'puppeteer-core';
import { keyActions, keyPress, type Engine, type EngineName, type Key, type Session, type SessionOptions } from './driver.js';
import { callExpression } from './source.js';

/** The project's Chromium flags (as in playwright.config.ts). */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/**
 * Chromium as a player has it: puppeteer adds `--disable-popup-blocking` to its default flags
 * (https://pptr.dev/api/puppeteer.launchoptions, `ignoreDefaultArgs`; the list is puppeteer's
 * ChromeLauncher `defaultArgs`), which would let a `window.open` without a user activation
 * through. Left out, the popup blocker is on, as in Firefox below.
 */
export function chromiumLaunchOptions(executablePath: string): LaunchOptions {
  return { browser: 'chrome', executablePath, headless: true, args: CHROMIUM_ARGS, ignoreDefaultArgs: ['--disable-popup-blocking'] };
}

/**
 * Firefox as a player has it: automation turns off the popup blocker and cookie partitioning
 * (puppeteer's profile sets `cookieBehavior0` and `dom.disable_open_during_load: false`), which
 * would let the popup and framed-game tests prove less than they seem. These are Firefox's
 * defaults: popups only from a user action, and Total Cookie Protection (dynamic first-party
 * isolation, cookieBehavior 5).
 */
export const FIREFOX_DEFAULTS = {
  'dom.disable_open_during_load': true,
  'network.cookie.cookieBehavior': 5,
  'browser.contentblocking.features.standard': '-tp,tpPrivate,cookieBehavior5,cookieBehaviorPBM5,-cryptoTP,-fp',
};

class PuppeteerSession implements Session {
  readonly problems: string[] = [];
  readonly #context: BrowserContext;
  readonly #ids = new WeakMap<Page, string>();
  #count = 0;
  #page: Page;
  #frame: Frame;

  constructor(
    readonly engine: EngineName,
    context: BrowserContext,
    page: Page,
    /** How a session with a browser of its own ends (closing that browser); else its context is closed. */
    readonly end?: () => Promise<void>,
  ) {
    this.#context = context;
    this.#page = page;
    this.#frame = page.mainFrame();
    this.#watch(page);
  }

  #watch(page: Page): void {
    if (this.#ids.has(page)) return;
    this.#ids.set(page, `window-${this.#count++}`);
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warn')
        this.problems.push(`${message.type()}: ${message.text()} (${message.location().url ?? ''})`);
    });
    page.on('pageerror', (error) => this.problems.push(`uncaught: ${error instanceof Error ? error.message : String(error)}`));
  }

  async goto(url: string): Promise<void> {
    await this.#page.goto(url, { waitUntil: 'load' });
    this.#frame = this.#page.mainFrame();
  }

  async start(url: string): Promise<void> {
    this.#frame = this.#page.mainFrame();
    await this.#frame.evaluate(`setTimeout(() => location.assign(${JSON.stringify(url)}))`);
  }

  url(): Promise<string> {
    return this.#page.mainFrame().evaluate('location.href') as Promise<string>;
  }

  async back(): Promise<void> {
    this.#frame = this.#page.mainFrame();
    await this.#page.goBack({ waitUntil: 'load' });
  }

  async click(selector: string): Promise<void> {
    const element = await this.#frame.waitForSelector(selector, { timeout: 10_000 });
    await element!.click();
  }

  /**
   * Where keys go: `undefined` for the page's keyboard, in Chromium and in Firefox's top-level
   * document. In a frame, Firefox takes the key from its own browsing context: its WebDriver BiDi
   * dispatches keys in the document of the context it is given, and the top-level one does not pass
   * them on into a cross-site frame (another process): a key meant for the framed game's focused
   * button reached the <iframe> in the top-level document instead. Sent to the frame's context, the key reaches what has the focus
   * in the frame, as a person's key does while the frame has the focus. (A key held down there
   * stays down in that context's input state until its keyUp is sent there too.)
   */
  #firefoxFrame(): { performActions(actions: unknown): Promise<void> } | undefined {
    const frame = this.#frame as Frame & { browsingContext?: { performActions(actions: unknown): Promise<void> } };
    return this.engine === 'firefox' && frame !== this.#page.mainFrame() ? frame.browsingContext : undefined;
  }

  async press(key: Key): Promise<void> {
    const frame = this.#firefoxFrame();
    await (frame ? frame.performActions(keyPress(key)) : this.#page.keyboard.press(key));
  }

  async keyDown(key: Key): Promise<void> {
    const frame = this.#firefoxFrame();
    await (frame ? frame.performActions(keyActions(key, ['keyDown'])) : this.#page.keyboard.down(key));
  }

  async keyUp(key: Key): Promise<void> {
    const frame = this.#firefoxFrame();
    await (frame ? frame.performActions(keyActions(key, ['keyUp'])) : this.#page.keyboard.up(key));
  }

  async select(selector: string, value: string): Promise<void> {
    await this.#frame.waitForSelector(selector, { timeout: 10_000 });
    await this.#frame.select(selector, value);
  }

  evaluate<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<Awaited<T>> {
    return this.#frame.evaluate(callExpression(fn as (...args: never[]) => unknown, args)) as Promise<Awaited<T>>;
  }

  /**
   * Popups are watched from the moment a call finds them here (Firefox's `targetcreated` hands
   * over another Page object than `pages()` for the same window, so that event is not used).
   */
  async windows(): Promise<string[]> {
    const pages = await this.#context.pages();
    return pages
      .filter((page) => !page.isClosed())
      .map((page) => {
        this.#watch(page);
        return this.#ids.get(page)!;
      });
  }

  async switchToWindow(handle: string): Promise<void> {
    const page = (await this.#context.pages()).find((candidate) => this.#ids.get(candidate) === handle);
    if (page === undefined) throw new Error(`no window ${handle}`);
    // Brought to the front, as a window the player turns to is (WebDriver's switch does this too):
    // a page left in the background has its timers throttled, in Firefox by seconds.
    await page.bringToFront();
    this.#page = page;
    this.#frame = page.mainFrame();
  }

  async closeWindow(): Promise<void> {
    await this.#page.close({ runBeforeUnload: false });
  }

  async enterFrame(selector: string): Promise<void> {
    const element = await this.#frame.waitForSelector(selector, { timeout: 10_000 });
    const frame = await element!.contentFrame();
    if (frame === null) throw new Error(`${selector} is not a frame`);
    this.#frame = frame;
  }

  async leaveFrames(): Promise<void> {
    this.#frame = this.#page.mainFrame();
  }

  async close(): Promise<void> {
    await (this.end ? this.end() : this.#context.close());
  }
}

/**
 * Chromium or Firefox refusing every site's cookies, in a browser of its own: Chromium's "Don't
 * allow sites to save data" in a fresh profile's Preferences (its storage is refused too), Firefox's
 * network.cookie.cookieBehavior 2 ("block all cookies").
 */
async function launchBlockingCookies(
  name: 'chromium' | 'firefox',
  executablePath: string,
): Promise<{ browser: Browser; end(): Promise<void> }> {
  if (name === 'firefox') {
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath,
      headless: true,
      extraPrefsFirefox: { ...FIREFOX_DEFAULTS, 'network.cookie.cookieBehavior': 2, 'browser.contentblocking.category': 'custom' },
    });
    return { browser, end: () => browser.close() };
  }
  const profile = mkdtempSync(path.join(tmpdir(), 'itch-oauth-engines-cookies-'));
  mkdirSync(path.join(profile, 'Default'));
  writeFileSync(
    path.join(profile, 'Default', 'Preferences'),
    JSON.stringify({ profile: { default_content_setting_values: { cookies: 2 } } }),
  );
  const browser = await puppeteer.launch({ ...chromiumLaunchOptions(executablePath), userDataDir: profile });
  return {
    browser,
    end: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Launches Chromium or Firefox at `executablePath`, headless. */
export async function launchPuppeteerEngine(name: 'chromium' | 'firefox', executablePath: string): Promise<Engine> {
  const browser: Browser =
    name === 'chromium'
      ? await puppeteer.launch(chromiumLaunchOptions(executablePath))
      : await puppeteer.launch({ browser: 'firefox', executablePath, headless: true, extraPrefsFirefox: FIREFOX_DEFAULTS });
  const version = await browser.version();
  return {
    name,
    version,
    newSession: async ({ blockCookies }: SessionOptions = {}) => {
      if (blockCookies) {
        const own = await launchBlockingCookies(name, executablePath);
        // (The default context: a persistent profile's settings apply to it.)
        const context = own.browser.defaultBrowserContext();
        const [page] = await context.pages();
        return new PuppeteerSession(name, context, page ?? (await context.newPage()), own.end);
      }
      const context = await browser.createBrowserContext();
      return new PuppeteerSession(name, context, await context.newPage());
    },
    close: () => browser.close(),
  };
}
