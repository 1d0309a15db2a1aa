// End-to-end tests: a real Chromium-family browser (CHROME_PATH, Playwright's Chromium or the
// system's: scripts/find-browser.mjs) against servers on 127.0.0.1 that each test file starts on
// ports the OS picks and stops itself.
import { defineConfig } from '@playwright/test';
import { requireBrowser } from './scripts/find-browser.mjs';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: requireBrowser(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
  },
});
