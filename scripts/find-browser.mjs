// Which Chromium-family browser the tests drive, on any machine. In order of preference:
//   1. CHROME_PATH (when set, it alone counts: a wrong path is an error, not a reason to use another);
//   2. the Chromium that Playwright installed (`npx playwright install chromium`);
//   3. the system's Chrome, Chromium or Edge in their usual places on Linux, macOS and Windows.
// `node scripts/find-browser.mjs` prints the path, or one line saying how to get a browser and exits 1.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MISSING_BROWSER =
  'No Chrome, Chromium or Edge found: run `npx playwright install chromium`, or set CHROME_PATH to a Chromium-family browser.';

/** Where Playwright keeps its Chromium on this machine, or undefined without playwright-core. */
function playwrightChromium() {
  try {
    const require = createRequire(import.meta.url);
    return require('playwright-core').chromium.executablePath();
  } catch {
    return undefined;
  }
}

/** The usual install locations of Chrome, Chromium and Edge, most likely first. */
export function systemBrowserPaths(platform = process.platform, env = process.env, home = homedir()) {
  if (platform === 'darwin') {
    const apps = [
      'Google Chrome.app/Contents/MacOS/Google Chrome',
      'Chromium.app/Contents/MacOS/Chromium',
      'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ];
    return [...apps.map((app) => `/Applications/${app}`), ...apps.map((app) => path.posix.join(home, 'Applications', app))];
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.ProgramW6432].filter(
      (root) => root !== undefined && root !== '',
    );
    const apps = [
      'Google\\Chrome\\Application\\chrome.exe',
      'Chromium\\Application\\chrome.exe',
      'Microsoft\\Edge\\Application\\msedge.exe',
    ];
    return apps.flatMap((app) => roots.map((root) => path.win32.join(root, app)));
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/snap/bin/chromium',
    '/usr/bin/microsoft-edge',
    '/usr/bin/microsoft-edge-stable',
    '/opt/microsoft/msedge/msedge',
  ];
}

/**
 * The browser executable the tests use, or undefined when there is none.
 * The options exist for the tests; callers pass nothing.
 */
export function findBrowser({
  env = process.env,
  platform = process.platform,
  exists = existsSync,
  playwrightExecutable = playwrightChromium,
  home = homedir(),
} = {}) {
  if (env.CHROME_PATH) return exists(env.CHROME_PATH) ? env.CHROME_PATH : undefined;
  const installed = playwrightExecutable();
  if (installed && exists(installed)) return installed;
  return systemBrowserPaths(platform, env, home).find((candidate) => exists(candidate));
}

/** The browser executable, or (none found) one line on stderr and exit code 1. */
export function requireBrowser(options) {
  const found = findBrowser(options);
  if (found) return found;
  const env = options?.env ?? process.env;
  console.error(env.CHROME_PATH ? `CHROME_PATH=${env.CHROME_PATH} does not exist. ${MISSING_BROWSER}` : MISSING_BROWSER);
  process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(requireBrowser());
}
