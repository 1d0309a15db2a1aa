// Which engines this machine has, and how to get the missing ones: Chromium as the e2e suite finds
// it (scripts/find-browser.mjs), Firefox (FIREFOX_PATH or the system's), WebKitGTK's WebDriver and
// MiniBrowser (WEBKIT_WEBDRIVER, WEBKIT_MINIBROWSER or Debian's), and Xvfb when there is no display.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { findBrowser, MISSING_BROWSER } from '../../scripts/find-browser.mjs';
import type { Engine, EngineName } from './driver.js';
import { launchPuppeteerEngine } from './puppeteer-session.js';
import { launchWebKitEngine } from './webkit-session.js';

export const ENGINE_NAMES: readonly EngineName[] = ['chromium', 'firefox', 'webkit', 'webkit-itp'];

const MISSING_FIREFOX =
  'No Firefox found: `apt-get install firefox-esr` (Debian), or set FIREFOX_PATH to a Firefox of version 129 or later (WebDriver BiDi).';
const MISSING_WEBKIT =
  'No WebKitGTK WebDriver found: `apt-get install webkit2gtk-driver` (Debian: WebKitWebDriver and MiniBrowser), or set WEBKIT_WEBDRIVER and WEBKIT_MINIBROWSER.';
const MISSING_XVFB = 'No display and no Xvfb for WebKitGTK: `apt-get install xvfb`, or run with DISPLAY set.';

function onPath(command: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, command);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function firefox(): string | undefined {
  const env = process.env['FIREFOX_PATH'];
  if (env) return existsSync(env) ? env : undefined;
  const candidates = ['/Applications/Firefox.app/Contents/MacOS/firefox', 'C:\\Program Files\\Mozilla Firefox\\firefox.exe'];
  return onPath('firefox-esr') ?? onPath('firefox') ?? candidates.find((candidate) => existsSync(candidate));
}

/** Debian installs MiniBrowser under the architecture's library folder, e.g. /usr/lib/x86_64-linux-gnu. */
function miniBrowser(): string | undefined {
  const env = process.env['WEBKIT_MINIBROWSER'];
  if (env) return existsSync(env) ? env : undefined;
  const lib = '/usr/lib';
  const arches = existsSync(lib) ? readdirSync(lib).filter((dir) => dir.endsWith('-linux-gnu')) : [];
  return ['', ...arches.map((arch) => `${arch}/`)]
    .map((arch) => `${lib}/${arch}webkit2gtk-4.1/MiniBrowser`)
    .find((candidate) => existsSync(candidate));
}

/** How to launch an engine, or the sentence that says how to get it. */
export type Located = { launch(): Promise<Engine> } | { missing: string };

export function locateEngine(name: EngineName): Located {
  switch (name) {
    case 'chromium': {
      const found = findBrowser();
      return found ? { launch: () => launchPuppeteerEngine('chromium', found) } : { missing: MISSING_BROWSER };
    }
    case 'firefox': {
      const found = firefox();
      return found ? { launch: () => launchPuppeteerEngine('firefox', found) } : { missing: MISSING_FIREFOX };
    }
    case 'webkit':
    case 'webkit-itp': {
      const driver = process.env['WEBKIT_WEBDRIVER'] || onPath('WebKitWebDriver');
      const browser = miniBrowser();
      if (!driver || !existsSync(driver) || !browser) return { missing: MISSING_WEBKIT };
      if (!process.env['DISPLAY'] && !onPath('Xvfb')) return { missing: MISSING_XVFB };
      return { launch: () => launchWebKitEngine(name, { driver, miniBrowser: browser }) };
    }
  }
}

/** The engines to run: `ENGINES=firefox,webkit` picks some; all by default. */
export function selectedEngines(env: NodeJS.ProcessEnv = process.env): EngineName[] {
  const asked = env['ENGINES']
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (asked === undefined || asked.length === 0) return [...ENGINE_NAMES];
  const unknown = asked.filter((name) => !ENGINE_NAMES.includes(name as EngineName));
  if (unknown.length > 0) throw new Error(`ENGINES: unknown ${unknown.join(', ')} (known: ${ENGINE_NAMES.join(', ')})`);
  return asked as EngineName[];
}
