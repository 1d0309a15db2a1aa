// WebKitGTK through its WebDriver (WebKitWebDriver driving MiniBrowser) with WebdriverIO, in
// WebDriver classic: WebKitGTK's driver has no BiDi, so console messages cannot be read (a
// session's `problems` is undefined, and the scenarios say so instead of counting zero).
// Without a display, the engine starts its own Xvfb. One driver and MiniBrowser per session: a
// fresh profile, no cookies or storage from an earlier scenario.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { remote } from 'webdriverio';
import { keyActions, keyPress, type Engine, type EngineName, type Key, type Session, type SessionOptions } from './driver.js';
import { callExpression } from './source.js';

type Browser = Awaited<ReturnType<typeof remote>>;

class WebKitSession implements Session {
  readonly problems = undefined;

  constructor(
    readonly engine: EngineName,
    readonly browser: Browser,
    readonly end: () => void,
  ) {}

  async goto(url: string): Promise<void> {
    await this.browser.navigateTo(url);
  }

  async start(url: string): Promise<void> {
    await this.browser.executeScript('var url = arguments[0]; setTimeout(function () { location.assign(url); });', [url]);
  }

  url(): Promise<string> {
    return this.browser.getUrl();
  }

  async back(): Promise<void> {
    await this.browser.back();
  }

  async #element(selector: string) {
    const element = await this.browser.$(selector);
    await element.waitForExist({ timeout: 10_000 });
    return element;
  }

  async click(selector: string): Promise<void> {
    await (await this.#element(selector)).click();
  }

  async press(key: Key): Promise<void> {
    await this.browser.performActions(keyPress(key));
    await this.browser.releaseActions();
  }

  /** Down until `keyUp`: the input state keeps the key pressed between commands, until released. */
  async keyDown(key: Key): Promise<void> {
    await this.browser.performActions(keyActions(key, ['keyDown']));
  }

  async keyUp(key: Key): Promise<void> {
    await this.browser.performActions(keyActions(key, ['keyUp']));
    await this.browser.releaseActions();
  }

  async select(selector: string, value: string): Promise<void> {
    await (await this.#element(selector)).selectByAttribute('value', value);
  }

  evaluate<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<Awaited<T>> {
    return this.browser.executeScript(`return ${callExpression(fn as (...args: never[]) => unknown, args)};`, []) as Promise<Awaited<T>>;
  }

  windows(): Promise<string[]> {
    return this.browser.getWindowHandles();
  }

  async switchToWindow(handle: string): Promise<void> {
    await this.browser.switchToWindow(handle);
  }

  async closeWindow(): Promise<void> {
    await this.browser.closeWindow();
  }

  async enterFrame(selector: string): Promise<void> {
    await this.browser.switchFrame(await this.#element(selector));
  }

  async leaveFrames(): Promise<void> {
    await this.browser.switchFrame(null);
  }

  async close(): Promise<void> {
    try {
      await this.browser.deleteSession();
    } finally {
      // The driver, MiniBrowser and its WebKit processes, whatever state they are in.
      this.end();
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts `Xvfb` on a free display and resolves to its name (`:N`). */
function startXvfb(children: ChildProcess[]): Promise<string> {
  const xvfb = spawn('Xvfb', ['-displayfd', '1', '-nolisten', 'tcp', '-screen', '0', '1280x900x24'], {
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  children.push(xvfb);
  return new Promise((resolve, reject) => {
    xvfb.once('error', reject);
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
    xvfb.stdout!.once('data', (data: Buffer) => resolve(`:${String(data).trim()}`));
  });
}

export interface WebKitPaths {
  driver: string;
  miniBrowser: string;
}

/** Ends a process and everything it started (it leads its own process group). */
function killGroup(child: ChildProcess): void {
  if (child.exitCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** How long a new MiniBrowser may take to answer before its driver is ended and one more is tried. */
const SESSION_START_MS = 30_000;

/**
 * Starts Xvfb when there is no display; each session is a WebKitWebDriver of its own with its
 * MiniBrowser (Intelligent Tracking Prevention on for `webkit-itp`), ended as a whole process
 * group when the session closes. (With one driver for the run, a new session once waited 90 s
 * behind the MiniBrowser of the one before, which had not exited.)
 */
export async function launchWebKitEngine(name: 'webkit' | 'webkit-itp', paths: WebKitPaths): Promise<Engine> {
  const children: ChildProcess[] = [];
  const stop = () => {
    for (const child of children.reverse()) killGroup(child);
  };
  process.once('exit', stop);
  const display = process.env['DISPLAY'] || (await startXvfb(children).catch((error: unknown) => (stop(), Promise.reject(error))));
  const args = ['--automation', ...(name === 'webkit-itp' ? ['--enable-itp'] : [])];

  /**
   * A driver and its browser, or (not up within SESSION_START_MS) an error with both ended.
   * `extra`: more MiniBrowser arguments (`--cookies-policy=never` for a player who blocks cookies).
   */
  const open = async (extra: string[] = []): Promise<{ browser: Browser; driver: ChildProcess }> => {
    const port = await freePort();
    const driver = spawn(paths.driver, [`--port=${port}`], { stdio: 'ignore', detached: true, env: { ...process.env, DISPLAY: display } });
    children.push(driver);
    const deadline = Date.now() + SESSION_START_MS;
    try {
      for (let ready = false; !ready;) {
        if (driver.exitCode !== null) throw new Error(`${paths.driver} exited with ${driver.exitCode}`);
        if (Date.now() > deadline) throw new Error(`${paths.driver} did not answer within ${SESSION_START_MS} ms`);
        ready = await fetch(`http://127.0.0.1:${port}/status`).then(
          (response) => response.ok,
          () => false,
        );
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const browser = await remote({
        hostname: '127.0.0.1',
        port,
        logLevel: 'silent',
        connectionRetryCount: 0,
        connectionRetryTimeout: Math.max(deadline - Date.now(), 5_000),
        capabilities: {
          // No BiDi in WebKitGTK: WebdriverIO must not ask for it.
          'wdio:enforceWebDriverClassic': true,
          timeouts: { script: 10_000, pageLoad: 30_000, implicit: 0 },
          'webkitgtk:browserOptions': { binary: paths.miniBrowser, args: [...args, ...extra] },
        } as WebdriverIO.Capabilities,
      });
      // Commands after the start wait as long as their own timeouts (script, page load) allow.
      browser.options.connectionRetryTimeout = 60_000;
      return { browser, driver };
    } catch (error) {
      killGroup(driver);
      throw error;
    }
  };
  /** A browser that does not start is infrastructure, not the behaviour under test: one more try, said aloud. */
  const openOrRetry = (extra?: string[]) =>
    open(extra).catch((error: unknown) => {
      console.error(`${name}: MiniBrowser did not start (${String(error)}); one more try with a new driver`);
      return open(extra);
    });

  try {
    const first = await openOrRetry();
    const version = `WebKitGTK ${String((first.browser.capabilities as { browserVersion?: string }).browserVersion ?? '?')} (MiniBrowser ${args.join(' ')})`;
    await first.browser.deleteSession().catch(() => undefined);
    killGroup(first.driver);
    return {
      name,
      version,
      newSession: async ({ blockCookies }: SessionOptions = {}) => {
        const { browser, driver } = await openOrRetry(blockCookies ? ['--cookies-policy=never'] : []);
        return new WebKitSession(name, browser, () => killGroup(driver));
      },
      close: async () => {
        stop();
        process.off('exit', stop);
      },
    };
  } catch (error) {
    stop();
    process.off('exit', stop);
    throw error;
  }
}
