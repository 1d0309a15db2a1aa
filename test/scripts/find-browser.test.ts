// The browser finder's order of preference: CHROME_PATH, then Playwright's Chromium, then the
// system's Chrome/Chromium/Edge; and one line with exit code 1 when there is none.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MISSING_BROWSER, findBrowser } from '../../scripts/find-browser.mjs';

const script = fileURLToPath(new URL('../../scripts/find-browser.mjs', import.meta.url));
const PLAYWRIGHT = '/home/me/.cache/ms-playwright/chromium-1200/chrome-linux/chrome';

interface Machine {
  env?: Record<string, string>;
  platform?: string;
  files: string[];
  playwright?: string | undefined;
}

function find({ env = {}, platform = 'linux', files, playwright = PLAYWRIGHT }: Machine): string | undefined {
  return findBrowser({
    env,
    platform,
    home: '/home/me',
    exists: (file: string) => files.includes(file),
    playwrightExecutable: () => playwright,
  });
}

describe('findBrowser', () => {
  it('takes CHROME_PATH first', () => {
    assert.equal(
      find({ env: { CHROME_PATH: '/opt/my/chrome' }, files: ['/opt/my/chrome', PLAYWRIGHT, '/usr/bin/chromium'] }),
      '/opt/my/chrome',
    );
  });

  it('does not fall back to another browser when CHROME_PATH is wrong', () => {
    assert.equal(find({ env: { CHROME_PATH: '/nope' }, files: [PLAYWRIGHT, '/usr/bin/chromium'] }), undefined);
  });

  it("then Playwright's Chromium, when it is installed", () => {
    assert.equal(find({ files: [PLAYWRIGHT, '/usr/bin/chromium'] }), PLAYWRIGHT);
    assert.equal(find({ files: ['/usr/bin/chromium'] }), '/usr/bin/chromium');
    assert.equal(find({ playwright: undefined, files: ['/usr/bin/google-chrome'] }), '/usr/bin/google-chrome');
  });

  it('then the system browser on Linux, Chromium before Chrome before Edge', () => {
    const all = ['/usr/bin/microsoft-edge', '/usr/bin/google-chrome', '/usr/bin/chromium'];
    assert.equal(find({ files: all }), '/usr/bin/chromium');
    assert.equal(find({ files: all.slice(0, 2) }), '/usr/bin/google-chrome');
    assert.equal(find({ files: all.slice(0, 1) }), '/usr/bin/microsoft-edge');
  });

  it('on macOS: /Applications, then ~/Applications', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    const edge = '/home/me/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge';
    assert.equal(find({ platform: 'darwin', files: [edge, chrome, '/usr/bin/chromium'] }), chrome);
    assert.equal(find({ platform: 'darwin', files: [edge, '/usr/bin/chromium'] }), edge);
  });

  it('on Windows: Chrome per user or per machine, then Edge', () => {
    const env = {
      LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local',
      PROGRAMFILES: 'C:\\Program Files',
      'PROGRAMFILES(X86)': 'C:\\Program Files (x86)',
    };
    const chrome = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    assert.equal(find({ platform: 'win32', env, files: [edge, chrome] }), chrome);
    assert.equal(find({ platform: 'win32', env, files: [edge] }), edge);
  });

  it('finds nothing on a machine without a browser', () => {
    assert.equal(find({ files: [] }), undefined);
  });
});

describe('node scripts/find-browser.mjs', () => {
  it('prints the path it found', () => {
    const run = spawnSync(process.execPath, [script], { env: { ...process.env, CHROME_PATH: process.execPath }, encoding: 'utf8' });
    assert.equal(run.status, 0);
    assert.equal(run.stdout, `${process.execPath}\n`);
  });

  it('without a browser: one line saying how to get one, exit code 1', () => {
    const run = spawnSync(process.execPath, [script], { env: { ...process.env, CHROME_PATH: '/nonexistent/chrome' }, encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, `CHROME_PATH=/nonexistent/chrome does not exist. ${MISSING_BROWSER}\n`);
    assert.match(run.stderr, /npx playwright install chromium/);
  });
});
