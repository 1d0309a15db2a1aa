// playerMessage() where a game's server or tooling runs it: no DOM, and a `navigator` that is
// missing (Node 20), without `languages` (workerd: https://developers.cloudflare.com/workers/runtime-apis/web-standards/#navigatoruseragent)
// or with them (Deno, Bun). English is built in: it never touches the network. Run from src/, and
// from the ESM build in dist/ in a fresh Node process (`npm run build` first).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ERROR_CODES } from '../../src/core/errors.js';
import { widget as de } from '../../src/i18n/locales/de.js';
import { problems } from '../../src/i18n/locales/en.js';
import { playerMessage } from '../../src/i18n/player-message.js';
import { bundleWorker } from '../cloudflare/support/bundle-worker.js';

/** `navigator` as each runtime has it, set on the global object for a test (and taken away after). */
const runtimes: Record<string, object | undefined> = {
  'Node 20 (no navigator)': undefined,
  'workerd (a navigator without languages)': { userAgent: 'Cloudflare-Workers' },
  'Deno (navigator.languages)': { userAgent: 'Deno/2.1.4', language: 'en-US', languages: ['en-US'] },
};

const global = globalThis as { navigator?: unknown; document?: unknown; fetch: typeof fetch };
const ownNavigator = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
const ownFetch = global.fetch;

for (const [runtime, navigator] of Object.entries(runtimes)) {
  describe(`playerMessage in ${runtime}`, () => {
    let fetched: string[];
    beforeEach(() => {
      assert.equal(typeof global.document, 'undefined');
      Object.defineProperty(globalThis, 'navigator', { value: navigator, configurable: true, writable: true });
      fetched = [];
      global.fetch = (input) => {
        fetched.push(String(input));
        return Promise.reject(new TypeError('no network here'));
      };
    });
    afterEach(() => {
      if (ownNavigator) Object.defineProperty(globalThis, 'navigator', ownNavigator);
      else delete global.navigator;
      global.fetch = ownFetch;
    });

    it('gives the English sentence of every code without a language, and asks the network nothing', async () => {
      for (const code of ERROR_CODES) assert.equal(await playerMessage(code), problems[code], code);
      assert.deepEqual(fetched, []);
    });

    it("gives the English sentence with 'en' and with a language the package does not ship", async () => {
      assert.equal(await playerMessage('popup_closed', 'en'), 'The itch.io window was closed before the login finished.');
      assert.equal(await playerMessage('popup_closed', 'en-GB'), problems.popup_closed);
      assert.equal(await playerMessage('popup_closed', 'tlh'), problems.popup_closed);
      assert.deepEqual(fetched, []);
    });

    it('gives a shipped language from the package itself', async () => {
      assert.equal(await playerMessage('service_unavailable', 'de-AT'), de.service_unavailable);
    });

    it('rejects what is not an error code with a TypeError', async () => {
      await assert.rejects(playerMessage('nope' as never), TypeError);
    });
  });
}

describe("service_unavailable's words (also a rate limit's 429, whose Retry-After is about a minute)", () => {
  it('say to try again in a minute', () => {
    assert.match(problems.service_unavailable, /not answering right now\. Try again in a minute\.$/);
  });
});

describe('playerMessage from the ESM build (dist/index.js)', () => {
  it("answers in a fresh Node 20 process, with no DOM and no navigator: English, and German from the package's own chunk", () => {
    const index = pathToFileURL(path.join(fileURLToPath(new URL('../../dist/', import.meta.url)), 'index.js')).href;
    const script = `
      globalThis.fetch = () => { throw new Error('fetched'); };
      const { playerMessage } = await import(${JSON.stringify(index)});
      console.log(JSON.stringify({
        navigator: typeof navigator,
        en: await playerMessage('popup_closed'),
        enTagged: await playerMessage('popup_closed', 'en'),
        de: await playerMessage('popup_closed', 'de'),
      }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    const result = JSON.parse(out.trim().split('\n').pop()!) as Record<string, string>;
    // (Node 21 added a global navigator; the package supports Node 20.19 and later.)
    const navigatorOfNode = Number(process.versions.node.split('.')[0]) >= 21 ? 'object' : 'undefined';
    assert.deepEqual(result, {
      navigator: navigatorOfNode,
      en: problems.popup_closed,
      enTagged: problems.popup_closed,
      de: de.popup_closed,
    });
  });
});

/**
 * The packed package as the examples install it (`npm run examples:install`, which npm test runs
 * before these tests), in the runtimes that come with them: Deno, and workerd through Miniflare
 * (the Worker bundled as wrangler bundles one). With CI=true a missing install fails the run.
 */
describe('playerMessage from the packed package, in Deno and in workerd', () => {
  const examples = fileURLToPath(new URL('../../examples/', import.meta.url));
  const installed = existsSync(path.join(examples, 'node_modules', 'itch-oauth-widget', 'package.json'));
  const skip = installed || process.env['CI'] === 'true' ? false : 'the examples are not installed: npm run examples:install';
  /** The program each runtime runs: every English sentence with no network, and 'en' and 'de' asked for. */
  const PROGRAM = `
    import { playerMessage } from 'itch-oauth-widget';
    const fetched = [];
    globalThis.fetch = (input) => { fetched.push(String(input)); return Promise.reject(new TypeError('no network here')); };
    const codes = ${JSON.stringify(ERROR_CODES)};
    const english = {};
    for (const code of codes) english[code] = await playerMessage(code);
    const answer = { english, tagged: await playerMessage('popup_closed', 'en'), fetched: [...fetched] };`;
  const expected = {
    english: Object.fromEntries(ERROR_CODES.map((code) => [code, problems[code]])),
    tagged: problems.popup_closed,
    fetched: [],
  };

  it('Deno: English with no network, and German from the package', { skip }, () => {
    const out = execFileSync(
      path.join(examples, 'node_modules', '.bin', 'deno'),
      ['eval', `${PROGRAM}\nanswer.de = await playerMessage('popup_closed', 'de'); console.log(JSON.stringify(answer));`],
      { cwd: examples, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } },
    );
    assert.deepEqual(JSON.parse(out.trim().split('\n').pop()!), { ...expected, de: de.popup_closed });
  });

  it('workerd: English with no network, in a Worker', { skip }, async () => {
    const contents = `export default { async fetch() { ${PROGRAM.replace(/^\s*import .*$/m, '')}\n return Response.json(answer); } };\nimport { playerMessage } from 'itch-oauth-widget';`;
    const script = await bundleWorker(contents, examples);
    const { Miniflare } = createRequire(path.join(examples, 'package.json'))('miniflare') as {
      Miniflare: new (options: object) => { dispatchFetch(url: string): Promise<Response>; dispose(): Promise<void> };
    };
    const workerd = new Miniflare({ modules: true, script, compatibilityDate: '2026-04-01' });
    try {
      assert.deepEqual(await (await workerd.dispatchFetch('http://worker/')).json(), expected);
    } finally {
      await workerd.dispose();
    }
  });
});
