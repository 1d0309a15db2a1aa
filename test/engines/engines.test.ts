// The engine matrix: every scenario of scenarios.ts in Chromium, Firefox, WebKitGTK and WebKitGTK
// with ITP (`ENGINES=firefox,webkit` runs some engines, `SCENARIO=popup` the scenarios whose name
// contains it). An engine this machine lacks is skipped with the
// way to get it; under CI (CI=true) it fails instead. Needs `npm run build` first (the script-tag
// files under dist/).
import { after, before, describe, test } from 'node:test';
import { startDemo, type RunningDemo } from '../../demo/serve.js';
import type { Engine } from './driver.js';
import { locateEngine, selectedEngines } from './engines.js';
import { POPUP_BINDING_ATTACKS, SCENARIOS } from './scenarios.js';

const inCi = process.env['CI'] === 'true' || process.env['CI'] === '1';

let demo: Promise<RunningDemo> | undefined;
after(async () => {
  await (await demo)?.close();
});
const startOnce = () => (demo ??= startDemo({ port: 0, logLevel: 'silent' }));

for (const name of selectedEngines()) {
  describe(name, () => {
    const located = locateEngine(name);
    let engine: Engine | undefined;
    before(async () => {
      if ('launch' in located) engine = await located.launch();
    });
    after(async () => {
      await engine?.close();
    });

    const only = process.env['SCENARIO'];
    for (const scenario of [...SCENARIOS, ...POPUP_BINDING_ATTACKS].filter(
      (candidate) => only === undefined || candidate.name.includes(only),
    )) {
      test(scenario.name, { timeout: 90_000 }, async (t) => {
        if ('missing' in located) {
          if (inCi) throw new Error(`${name} is missing in CI: ${located.missing}`);
          t.skip(located.missing);
          return;
        }
        const session = await engine!.newSession(scenario.session);
        const started = Date.now();
        try {
          await scenario.run(session, { demo: startOnce, note: (text) => t.diagnostic(text) });
        } finally {
          t.diagnostic(`${engine!.version}: ${Date.now() - started} ms`);
          // A browser left stuck by a failure must not put its own error in the failure's place.
          await session.close().catch((error: unknown) => t.diagnostic(`closing the session failed: ${String(error)}`));
        }
      });
    }
  });
}
