// A Chromium that refuses every site's cookies and storage, as a player who chose "Don't allow
// sites to save data" has it: a profile of its own whose Preferences say so (reading
// sessionStorage then throws; navigator.cookieEnabled still says true).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import { requireBrowser } from '../../../scripts/find-browser.mjs';

/** The browser's context, and `close()`, which also removes its profile. */
export async function launchCookieBlockingChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(tmpdir(), 'itch-oauth-cookies-'));
  mkdirSync(path.join(profile, 'Default'));
  writeFileSync(
    path.join(profile, 'Default', 'Preferences'),
    JSON.stringify({ profile: { default_content_setting_values: { cookies: 2 } } }),
  );
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: requireBrowser(),
    args: ['--no-sandbox', '--disable-gpu'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
