// The new-user path: test/new-user/new-user.spec.ts alone (`npm run test:new-user`), in the
// Chromium the other end-to-end tests use (scripts/find-browser.mjs).
import { defineConfig } from '@playwright/test';
import { requireBrowser } from '../../scripts/find-browser.mjs';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: requireBrowser(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
  },
});
