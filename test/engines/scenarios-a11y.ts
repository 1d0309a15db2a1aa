// Accessibility in every engine: axe-core (its axe.min.js, sent as a script through the driver,
// which no page's Content-Security-Policy applies to) runs its WCAG 2.2 A/AA rules on the login
// button (idle, disabled, busy while its popup is open), the callback element after a refusal
// with "Try again", the capture's pending view, the emulator's consent page and the demo's home
// page. Chromium runs these and more in test/e2e/a11y.spec.ts; here Firefox and WebKit do too.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { startPopupWorld } from '../e2e/support/popup-world.js';
import { flowRecord, gamePage, startSite } from '../e2e/support/site.js';
import { newWindowFrom, waitFor, waitForUrl, type Session } from './driver.js';
import type { Scenario, ScenarioContext } from './scenarios.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

interface AxeCounts {
  violations: string[];
  passes: number;
  incomplete: number;
  /** Checked nodes inside a shadow root (axe gives their target as a path through the host). */
  shadow: number;
}

/** Puts axe into the current frame (once per document): Session.evaluate sends a function's source, so this one's is axe itself. */
async function injectAxe(session: Session): Promise<void> {
  const source = `function () { if (!window.axe) { ${AXE_SOURCE}\n } return typeof window.axe; }`;
  const inject = Object.assign(() => '', { toString: () => source });
  assert.equal(await session.evaluate(inject), 'object', 'axe-core is in the page');
}

/** Runs axe on the current frame's document (not into frames: each is audited on its own). */
export async function audit(session: Session, context: ScenarioContext, what: string): Promise<AxeCounts> {
  await injectAxe(session);
  const counts = await session.evaluate(async (tags: string[]) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: { id: string; nodes: { target: unknown[] }[] }[];
      passes: { nodes: { target: unknown[] }[] }[];
      incomplete: unknown[];
    }
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, iframes: false });
    return {
      violations: results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`),
      passes: results.passes.length,
      incomplete: results.incomplete.length,
      shadow: results.passes.flatMap((p) => p.nodes).filter((n) => n.target.some((part) => Array.isArray(part))).length,
    };
  }, WCAG);
  context.note(
    `axe ${session.engine} ${what}: ${counts.violations.length} violations, ${counts.passes} passes, ${counts.incomplete} incomplete, ${counts.shadow} shadow nodes passed`,
  );
  assert.deepEqual(counts.violations, [], `axe violations on ${what}`);
  return counts;
}

const audits: Scenario = {
  name: 'accessibility: axe-core finds no WCAG 2.2 A/AA violation on the button, the callback, the pending view, the consent page and the demo',
  async run(session, context) {
    const site = await startSite();
    try {
      site.game = gamePage(
        `<itch-login-button client-id="c" redirect-uri="${site.url}/callback.html" base-url="${site.authUrl}"></itch-login-button>
         <itch-login-button disabled client-id="c" redirect-uri="${site.url}/callback.html"></itch-login-button>`,
      );
      await session.goto(`${site.url}/game.html`);
      await waitFor('the buttons to render', () =>
        session.evaluate(() => document.querySelectorAll('itch-login-button')[1]?.shadowRoot?.querySelector('button') != null),
      );
      const idle = await audit(session, context, 'button idle and disabled');
      assert.ok(idle.shadow > 0, "axe checked nodes inside the button's shadow root");

      // The callback after a refusal, with the capture first (and the page's title before it).
      site.page = {
        hostile: false,
        noRedirect: true,
        headStart: '<title>Signing in</title>',
        body: '<itch-oauth-callback no-redirect></itch-oauth-callback><script src="/dist/itch-oauth.iife.js"></script>',
      };
      site.authorizeWith = { error: 'access_denied' };
      await session.evaluate((key: string, value: string) => sessionStorage.setItem(key, value), ...flowRecord(site, 'D'));
      await session.goto(`${site.authUrl}/user/oauth?redirect_uri=${encodeURIComponent(`${site.url}/callback.html`)}&state=D`);
      await waitFor('the refusal with Try again', () =>
        session.evaluate(() => document.querySelector('itch-oauth-callback')?.shadowRoot?.querySelector('[part=retry]') != null),
      );
      const refused = await audit(session, context, 'callback access_denied');
      assert.ok(refused.shadow > 0, "axe checked nodes inside the callback's shadow root");

      // The capture's pending view, while the backend holds the token's POST.
      let release: () => void = () => undefined;
      site.backendHold = new Promise<void>((resolve) => (release = resolve));
      site.authorizeWith = { token: 'T' };
      await session.goto(`${site.url}/game.html`);
      await session.evaluate((key: string, value: string) => sessionStorage.setItem(key, value), ...flowRecord(site, 'P'));
      await session.start(`${site.authUrl}/user/oauth?redirect_uri=${encodeURIComponent(`${site.url}/callback.html`)}&state=P`);
      await waitFor('the pending view', () => session.evaluate(() => document.querySelector('output')?.textContent === 'Signing you in…'));
      await audit(session, context, "capture's pending view");
      release();
    } finally {
      await site.close();
    }

    const world = await startPopupWorld();
    try {
      await session.goto(`${world.app}/spa.html`);
      await waitFor('the button to render', () =>
        session.evaluate(() => document.querySelector('itch-login-button')?.shadowRoot?.querySelector('button') != null),
      );
      const [main] = await session.windows();
      const popup = await newWindowFrom(session, () => session.click('itch-login-button'));
      await waitFor('aria-busy on the button', () =>
        session.evaluate(() => document.querySelector('itch-login-button')!.shadowRoot!.querySelector('button[aria-busy=true]') != null),
      );
      await audit(session, context, 'button busy');
      await session.switchToWindow(popup);
      await waitForUrl(
        session,
        "the emulator's consent page",
        (url) => url.origin === world.emulator.url && url.pathname === '/user/oauth',
      );
      await audit(session, context, "emulator's consent page");
      await session.closeWindow();
      await session.switchToWindow(main!);
    } finally {
      await world.close();
    }

    const demo = await context.demo();
    await session.goto(`${demo.url}/`);
    await waitFor('the hero button to render', () =>
      session.evaluate(() => document.querySelector('.hero itch-login-button')?.shadowRoot?.querySelector('button') != null),
    );
    const home = await audit(session, context, 'demo home page');
    assert.ok(home.shadow > 0, "axe checked nodes inside the demo's login button");
  },
};

export const A11Y_SCENARIOS: Scenario[] = [audits];
