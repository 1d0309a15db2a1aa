// The script-tag files under the recommended Content-Security-Policy, Trusted Types enforced
// (docs/concepts/security.md#callback-page-headers): Lit makes a policy named `lit-html` as it
// loads, and a page with the button file and the full file makes it twice, as it makes the
// language files' policy (`itch-oauth-locale`) twice. Refused, the file stops where it is refused
// and defines nothing; the control shows that this engine does refuse.
import assert from 'node:assert/strict';
import { STRICT_CSP, startSite, type Site } from '../e2e/support/site.js';
import { waitFor, waitForText, type Session } from './driver.js';
import type { Scenario, ScenarioContext } from './scenarios.js';

/**
 * A German page with both script-tag files, the button file first: the full file, second, is the
 * only one that defines <itch-oauth-callback>, so the callback element drawn shows that the
 * second file made its policies too.
 */
function bothFiles(site: Site, policy: string): Site['page'] {
  return {
    capture: 'none',
    hostile: false,
    headStart: '<script src="/dist/itch-oauth-button.iife.js"></script><script src="/dist/itch-oauth.iife.js"></script>',
    headers: { 'Content-Security-Policy': `${policy}; report-uri /csp-report` },
    body: `<div lang="de"><itch-login-button client-id="abc" redirect-uri="${site.url}/callback.html"></itch-login-button><itch-oauth-callback></itch-oauth-callback></div>`,
  };
}

/** The text of an element's shadow root (`''` while it is not drawn). */
const shadowText = (session: Session, selector: string) =>
  session.evaluate((s: string) => document.querySelector(s)?.shadowRoot?.textContent?.trim() ?? '', selector);

export const trustedTypesBothFiles: Scenario = {
  name: 'both script-tag files on one page under the recommended CSP with Trusted Types: both elements drawn in German, no violation (a control without lit-html is refused)',
  async run(session: Session, context: ScenarioContext) {
    const site = await startSite();
    try {
      site.page = bothFiles(site, STRICT_CSP);
      await session.goto(`${site.url}/callback.html`);
      await waitForText(session, 'h1', 'the page', (text) => text === 'Signing you in');
      await waitFor(
        'the button to be drawn in German',
        async () => (await shadowText(session, 'itch-login-button')) === 'Mit itch.io anmelden',
      );
      await waitFor(
        'the callback element to be drawn in German',
        async () => (await shadowText(session, 'itch-oauth-callback')).length > 0,
      );
      assert.doesNotMatch(
        await shadowText(session, 'itch-oauth-callback'),
        /No itch\.io login in progress/,
        'the callback element speaks German',
      );
      const trustedTypes = await session.evaluate(() => typeof (window as { trustedTypes?: unknown }).trustedTypes !== 'undefined');
      if (!trustedTypes) context.note(`${session.engine} has no Trusted Types: the control below is not refused there`);

      // The control: the same page without lit-html among the policies. Each file stops at Lit's
      // policy, so nothing is defined; the refusals are reported, in order, after none before.
      site.page = bothFiles(site, STRICT_CSP.replace(' lit-html', ''));
      await session.goto(`${site.url}/callback.html?control`);
      await waitForText(session, 'h1', 'the control page', (text) => text === 'Signing you in');
      if (!trustedTypes) return;
      await waitFor('the control violations to be reported', async () => site.cspReports.length > 0);
      assert.equal(
        await session.evaluate(() => customElements.get('itch-oauth-callback') === undefined),
        true,
        'the full file defined nothing',
      );
      assert.ok(
        site.cspReports.every((report) => report.includes('callback.html?control')),
        `violations on the page with lit-html allowed: ${site.cspReports.join('\n')}`,
      );
    } finally {
      await site.close();
    }
  },
};
