// Unit and component tests in a real browser, importing src/ directly.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { requireBrowser } from './scripts/find-browser.mjs';

// CHROME_PATH, Playwright's Chromium or the system's Chrome/Chromium/Edge.
const executablePath = requireBrowser();

export default {
  files: ['test/core/**/*.test.ts', 'test/elements/**/*.test.ts', 'test/capture/**/*.test.ts', 'test/phaser/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  // A fresh machine's first Chromium start builds its font cache and profile, which took more
  // than the default 30 s once in CI; the tests' own timeout below stays short.
  browserStartTimeout: 120_000,
  testsStartTimeout: 120_000,
  plugins: [esbuildPlugin({ ts: true, tsconfig: new URL('./tsconfig.json', import.meta.url).pathname, target: 'es2022' })],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
      },
    }),
  ],
  testFramework: { config: { timeout: 5000 } },
};
