// Accessibility in every engine: axe-core (its axe.min.js, sent as a script through the driver,
// which no page's Content-Security-Policy applies to) runs its WCAG 2.2 A/AA rules on the login
// button (idle, disabled, busy while its popup is open), the callback element after a refusal
// with "Try again", the capture's pending view, the emulator's consent page, the demo's home
// page, and the pages of a severed popup: the popup's six-digit confirmation page, the game's code
// overlay (with its focus checked by keyboard: taken, kept from the game behind it, given back on
// Escape) and a popup's ending (`not_owner`) with Close. Each audit fails on a violation and on
// an audit that checked nothing. Chromium runs these and more in test/e2e/a11y.spec.ts; here
// Firefox and WebKit do too.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { startPopupWorld } from '../e2e/support/popup-world.js';
import { flowRecord, gamePage, startSite } from '../e2e/support/site.js';
import { newWindowFrom, waitFor, waitForUrl, type Session } from './driver.js';
import type { Scenario, ScenarioContext } from './scenarios.js';
import { approveOnConsentPage, buttonReady, openFramedGame } from './steps.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

interface AxeCounts {
  violations: string[];
  passes: number;
  incomplete: number;
  /** Checked nodes inside a shadow root (axe gives their target as a path through the host). */
  shadow: number;
  /** Checked nodes in the element `audit` was asked about (0 when it was asked about none). */
  inside: number;
}

/** Puts axe into the current frame (once per document): Session.evaluate sends a function's source, so this one's is axe itself. */
async function injectAxe(session: Session): Promise<void> {
  const source = `function () { if (!window.axe) { ${AXE_SOURCE}\n } return typeof window.axe; }`;
  const inject = Object.assign(() => '', { toString: () => source });
  assert.equal(await session.evaluate(inject), 'object', 'axe-core is in the page');
}

/**
 * Runs axe on the current frame's document (not into frames: each is audited on its own). With
 * `inside`, also counts the checked nodes that are, or are in, the first element it matches (an
 * element of the light DOM, such as the code overlay's <dialog>, whose nodes are no shadow path).
 */
export async function audit(session: Session, context: ScenarioContext, what: string, inside?: string): Promise<AxeCounts> {
  await injectAxe(session);
  const counts = await session.evaluate(
    async (tags: string[], inside: string | null) => {
      const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe;
      interface AxeResults {
        violations: { id: string; nodes: { target: unknown[] }[] }[];
        passes: { nodes: { target: unknown[] }[] }[];
        incomplete: unknown[];
      }
      const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, iframes: false });
      const container = inside === null ? null : document.querySelector(inside);
      const passed = results.passes.flatMap((p) => p.nodes);
      return {
        violations: results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`),
        passes: results.passes.length,
        incomplete: results.incomplete.length,
        shadow: passed.filter((n) => n.target.some((part) => Array.isArray(part))).length,
        inside: passed.filter((n) => {
          const [selector] = n.target;
          const node = n.target.length === 1 && typeof selector === 'string' ? document.querySelector(selector) : null;
          return container !== null && node !== null && container.contains(node);
        }).length,
      };
    },
    WCAG,
    inside ?? null,
  );
  context.note(
    `axe ${session.engine} ${what}: ${counts.violations.length} violations, ${counts.passes} passes, ${counts.incomplete} incomplete, ${counts.shadow} shadow nodes passed` +
      (inside === undefined ? '' : `, ${counts.inside} nodes passed in ${inside}`),
  );
  assert.deepEqual(counts.violations, [], `axe violations on ${what}`);
  assert.ok(counts.passes > 0, `axe checked nodes on ${what}`);
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
      await buttonReady(session, 'itch-login-button');
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

/** What has the focus in the current frame: `dialog`, `in dialog`, `button` (the login button's own), else the element's name. */
function focused(): string {
  const active = document.activeElement;
  if (active instanceof HTMLDialogElement) return 'dialog';
  if (active?.closest('dialog')) return 'in dialog';
  if (active?.localName === 'itch-login-button') return active.shadowRoot?.activeElement?.localName ?? 'itch-login-button';
  return active?.localName ?? 'none';
}

const confirmationAndOverlay: Scenario = {
  name: "accessibility, severed popup: axe-core finds no WCAG 2.2 A/AA violation on the popup's six-digit confirmation page and the game's code overlay, which takes the focus and gives it back",
  async run(session, context) {
    // A game under a cross-origin-isolated page: its window.open gives nothing, the popup cannot
    // be tied to it, and the site asks the person to confirm the code the game shows.
    const world = await startPopupWorld({ isolated: true, handler: { popup: { severedOpener: 'confirm' } } });
    try {
      const main = await openFramedGame(session, world);
      // By keyboard, as a11y.spec.ts does in Chromium: the focus on the button, Enter. (A click on
      // the game's heading first puts the focus in its frame, as a person's click does: WebKit
      // moves no focus into a frame that does not have it.)
      await session.click('h1');
      await session.evaluate(() => {
        window.focus();
        (document.querySelector('itch-login-button')!.shadowRoot!.querySelector('button') as HTMLButtonElement).focus();
      });
      assert.equal(await session.evaluate(focused), 'button', 'the focus is on the login button');

      const popup = await newWindowFrom(session, () => session.press('Enter'));

      await session.switchToWindow(popup);
      const code = await waitFor(
        'the confirmation page',
        () =>
          session.evaluate(() => {
            const shown = document.querySelector<HTMLElement>('#confirm');
            // (false, not undefined: WebDriver classic answers undefined as null.)
            return shown !== null && !shown.hidden && document.querySelector('.code')!.textContent!.trim();
          }),
        15_000,
      );
      assert.match(code, /^\d{3} \d{3}$/);
      await audit(session, context, 'popup confirmation page');

      // Back on the game's window, as the person turns to it to compare the code.
      await session.switchToWindow(main);
      await session.enterFrame('iframe[title="game"]');
      await waitFor(
        'the code overlay',
        () => session.evaluate((code: string) => document.querySelector('dialog[open]')?.textContent?.includes(code) === true, code),
        15_000,
      );
      const overlay = await audit(session, context, 'code overlay', 'dialog');
      assert.ok(overlay.inside > 0, "axe checked nodes in the overlay's dialog");

      // The focus: in the dialog while it shows; Tab does not reach the game behind it (inert);
      // Escape gives it back to the button, and the code stays in view.
      assert.match(await session.evaluate(focused), /dialog/, 'the dialog has the focus');
      const tabbed: string[] = [];
      for (let i = 0; i < 3; i++) {
        await session.press('Tab');
        tabbed.push(await session.evaluate(focused));
      }
      // (The dialog has nothing to tab to: the focus stays on it, or leaves the document, whose
      // body is then the active element; never anything of the game's.)
      for (const where of tabbed)
        assert.match(where, /^(dialog|in dialog|body)$/, `Tab reached the game behind the modal dialog: ${tabbed.join(', ')}`);
      await session.evaluate(() => document.querySelector('dialog')!.focus());
      await session.press('Escape');
      await waitFor('the focus back on the button', async () => (await session.evaluate(focused)) === 'button');
      // (Shown again by its close event, which comes after the focus has moved back.)
      await waitFor('the code to stay in view after Escape', () =>
        session.evaluate((code: string) => document.querySelector('dialog[open]')?.textContent?.includes(code) === true, code),
      );
      context.note(
        `${session.engine} keyboard: the overlay took the focus; after each Tab: ${tabbed.join(', ')}; Escape gave it back to the button`,
      );
    } finally {
      await world.close();
    }
  },
};

const popupEnding: Scenario = {
  name: "accessibility, severed popup: axe-core finds no WCAG 2.2 A/AA violation on the popup's ending (not_owner) with Close, which has the focus",
  async run(session, context) {
    const world = await startPopupWorld({
      coop: true,
      callbackAttributes: 'store-url="https://pixelforge.itch.io/starfall-keep"',
      handler: { ownership: { gameIds: [C.games.starfallKeep], apiKey: C.apiKeys.developer, require: true } },
    });
    try {
      await openFramedGame(session, world);
      const popup = await newWindowFrom(session, () => session.click('itch-login-button'));
      await session.switchToWindow(popup);
      await approveOnConsentPage(session, world.emulator.url, C.users.newcomer);
      await waitFor(
        'the ending with Close focused',
        () =>
          session.evaluate(() => {
            const element = document.querySelector('itch-oauth-callback');
            return document.activeElement === element && element!.shadowRoot!.activeElement?.getAttribute('part') === 'close';
          }),
        20_000,
      );
      const ending = await audit(session, context, 'popup ending not_owner with Close');
      assert.ok(ending.shadow > 0, "axe checked nodes inside the callback's shadow root");
    } finally {
      await world.close();
    }
  },
};

export const A11Y_SCENARIOS: Scenario[] = [audits, confirmationAndOverlay, popupEnding];
