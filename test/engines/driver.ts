// The one interface the engine scenarios drive a browser through, whatever the engine and its
// protocol: puppeteer-core (Chromium over CDP, Firefox over WebDriver BiDi) or WebdriverIO
// (WebKitGTK over WebDriver classic). It follows WebDriver's model: one current window, and in it
// one current frame that commands apply to.

/** The keys a scenario presses (puppeteer's names for them too). */
export type Key = 'Tab' | 'Enter' | 'Escape' | 'Space';

/**
 * WebDriver's code points for them (https://w3c.github.io/webdriver/#keyboard-actions). Enter is
 * the main one, WebDriver's "Return" (code `Enter`): its "Enter", \uE007, is the keypad's, which
 * Firefox sends as `NumpadEnter`.
 */
export const WEBDRIVER_KEYS: Record<Key, string> = { Tab: '\uE004', Enter: '\uE006', Escape: '\uE00C', Space: '\uE00D' };

/** Key actions on one key, as a WebDriver (classic or BiDi) action sequence. */
export function keyActions(key: Key, steps: ('keyDown' | 'keyUp')[]) {
  const value = WEBDRIVER_KEYS[key];
  return [{ type: 'key' as const, id: 'keyboard', actions: steps.map((type) => ({ type, value })) }];
}

/** A key pressed and released. */
export const keyPress = (key: Key) => keyActions(key, ['keyDown', 'keyUp']);

/** An engine of the matrix. */
export type EngineName = 'chromium' | 'firefox' | 'webkit' | 'webkit-itp';

export interface Session {
  readonly engine: EngineName;
  /**
   * The console's errors and warnings and the uncaught errors, of every window of the session so
   * far; `undefined` where the engine's protocol cannot report them (WebDriver classic has no
   * console: WebKitGTK's driver speaks no BiDi).
   */
  readonly problems: string[] | undefined;
  /** Navigates the current window and waits for its `load`. */
  goto(url: string): Promise<void>;
  /**
   * Navigates the current window and returns at once: for documents that never finish, such as a
   * callback whose token is still being delivered.
   */
  start(url: string): Promise<void>;
  /** The current window's address (of its top-level document, even inside a frame). */
  url(): Promise<string>;
  back(): Promise<void>;
  /** A real click (trusted, with user activation) in the middle of the element. */
  click(selector: string): Promise<void>;
  /**
   * Presses and releases a key in the current window, as a person at the keyboard does (a trusted
   * event, to whatever has the focus there): what a focus check needs, Tab and Enter and Escape.
   */
  press(key: Key): Promise<void>;
  /**
   * Puts a key down and leaves it down, as a player holding it does; a second `keyDown` while it
   * is down is a repeated keydown (`event.repeat`), as a keyboard's auto-repeat sends
   * (https://w3c.github.io/webdriver/#dfn-dispatch-a-keydown-action). `keyUp` releases it.
   */
  keyDown(key: Key): Promise<void>;
  keyUp(key: Key): Promise<void>;
  /** Picks the option with this value in a `<select>`, as a user does. */
  select(selector: string, value: string): Promise<void>;
  /**
   * Runs `fn(...args)` in the current frame and returns its JSON-able result. `fn` is sent as its
   * source: it may use only its arguments and the page's globals.
   */
  evaluate<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<Awaited<T>>;
  /** Handles of the session's open windows (the first is the one it started with). */
  windows(): Promise<string[]>;
  switchToWindow(handle: string): Promise<void>;
  /** Closes the current window, as a player closes a popup. */
  closeWindow(): Promise<void>;
  /** Makes the iframe matching `selector` in the current frame the current frame. */
  enterFrame(selector: string): Promise<void>;
  /** Back to the current window's top-level document. */
  leaveFrames(): Promise<void>;
  close(): Promise<void>;
}

/** How a session's browser is set up beyond the engine's defaults. */
export interface SessionOptions {
  /**
   * The browser refuses every site's cookies (and, where the engine ties them together, its
   * storage), as a player who turned them off has it: a browser of its own for the session.
   */
  blockCookies?: boolean;
}

/** An engine started for the run: it opens a fresh session (no cookies, no storage) per scenario. */
export interface Engine {
  readonly name: EngineName;
  /** Browser and version, for the report. */
  readonly version: string;
  newSession(options?: SessionOptions): Promise<Session>;
  close(): Promise<void>;
}

/**
 * Polls `check` until it returns something other than `undefined`/`false`, and returns that: a
 * wait for a condition (a readiness signal), never for a time. Fails after `timeoutMs` with `what`.
 */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    try {
      // A check that hangs (a script call into a page that does not answer) fails at the deadline too.
      const overdue = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer')), Math.max(deadline - Date.now(), 1_000));
      });
      const value = await Promise.race([check(), overdue]);
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      // A frame that is navigating, a window being replaced: ask again.
      last = error;
    } finally {
      clearTimeout(timer);
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the current window's address passes `test`, and returns it. */
export function waitForUrl(session: Session, what: string, test: (url: URL) => boolean, timeoutMs?: number): Promise<string> {
  return waitFor(
    `the address to be ${what}`,
    async () => {
      const url = await session.url();
      return test(new URL(url)) ? url : undefined;
    },
    timeoutMs,
  );
}

/** The text of the first element matching `selector` in the current frame, or null. */
export function textOf(session: Session, selector: string): Promise<string | null> {
  return session.evaluate((s: string) => document.querySelector(s)?.textContent ?? null, selector);
}

/** Waits until the element's text passes `test`, and returns the text. */
export function waitForText(
  session: Session,
  selector: string,
  what: string,
  test: (text: string) => boolean,
  timeoutMs?: number,
): Promise<string> {
  return waitFor(
    `${selector} to show ${what}`,
    async () => {
      const text = await textOf(session, selector);
      return text !== null && test(text) ? text : undefined;
    },
    timeoutMs,
  );
}

/** Runs `action` (a click) and returns the handle of the window it opened. */
export async function newWindowFrom(session: Session, action: () => Promise<void>): Promise<string> {
  const before = new Set(await session.windows());
  await action();
  return waitFor('a new window', async () => (await session.windows()).find((handle) => !before.has(handle)));
}
