// The script-tag files under the recommended Content-Security-Policy, Trusted Types enforced
// (docs/concepts/security.md#callback-page-headers): Lit makes a policy named `lit-html` as it
// loads, beside the package's `itch-oauth-locale` (the language files' addresses). One file per
// page needs nothing more; a page with the button file and the full file makes each policy twice,
// which `'allow-duplicates'` allows. Refused, a file stops where it is refused and defines nothing:
// the control shows that this engine refuses the second file without that keyword.
import assert from 'node:assert/strict';
import { STRICT_CSP, startSite, type Site } from '../e2e/support/site.js';
import { waitFor, waitForText, type Session } from './driver.js';
import type { Scenario, ScenarioContext } from './scenarios.js';

/**
 * A German page with the script files, the button file first: the full file, last, is the only
 * one that defines <itch-oauth-callback>, so the callback element drawn shows that it loaded.
 */
function germanPage(site: Site, files: string[], policy: string): Site['page'] {
  return {
    capture: 'none',
    hostile: false,
    headStart: files.map((file) => `<script src="/dist/${file}"></script>`).join(''),
    headers: { 'Content-Security-Policy': `${policy}; report-uri /csp-report` },
    body: `<div lang="de"><itch-login-button client-id="abc" redirect-uri="${site.url}/callback.html"></itch-login-button><itch-oauth-callback></itch-oauth-callback></div>`,
  };
}

/** The text of an element's shadow root (`''` while it is not drawn). */
const shadowText = (session: Session, selector: string) =>
  session.evaluate((s: string) => document.querySelector(s)?.shadowRoot?.textContent?.trim() ?? '', selector);

/** Opens the page and waits for both elements, drawn in German. */
async function bothDrawn(session: Session, url: string): Promise<void> {
  await session.goto(url);
  await waitForText(session, 'h1', 'the page', (text) => text === 'Signing you in');
  await waitFor(
    'the button to be drawn in German',
    async () => (await shadowText(session, 'itch-login-button')) === 'Mit itch.io anmelden',
  );
  await waitFor('the callback element to be drawn', async () => (await shadowText(session, 'itch-oauth-callback')).length > 0);
  assert.doesNotMatch(
    await shadowText(session, 'itch-oauth-callback'),
    /No itch\.io login in progress/,
    'the callback element speaks German',
  );
}

export const trustedTypesScriptFiles: Scenario = {
  name: "the script-tag files under the recommended CSP with Trusted Types: the full file alone, and both files with 'allow-duplicates', draw both elements in German with no violation; both without it, the second is refused (control)",
  async run(session: Session, context: ScenarioContext) {
    const site = await startSite();
    try {
      site.page = germanPage(site, ['itch-oauth.iife.js'], STRICT_CSP);
      await bothDrawn(session, `${site.url}/callback.html?one`);
      site.page = germanPage(site, ['itch-oauth-button.iife.js', 'itch-oauth.iife.js'], `${STRICT_CSP} 'allow-duplicates'`);
      await bothDrawn(session, `${site.url}/callback.html?both`);
      const trustedTypes = await session.evaluate(() => typeof (window as { trustedTypes?: unknown }).trustedTypes !== 'undefined');
      if (!trustedTypes) {
        context.note(`${session.engine} has no Trusted Types: nothing is refused there, and the control is skipped`);
        return;
      }

      // The control: both files without 'allow-duplicates'. The full file, second, stops at Lit's
      // policy and defines nothing; the refusal is reported, and none came before it.
      site.page = germanPage(site, ['itch-oauth-button.iife.js', 'itch-oauth.iife.js'], STRICT_CSP);
      await session.goto(`${site.url}/callback.html?control`);
      await waitForText(session, 'h1', 'the control page', (text) => text === 'Signing you in');
      await waitFor('the control violation to be reported', async () => site.cspReports.length > 0);
      assert.equal(
        await session.evaluate(() => customElements.get('itch-oauth-callback') === undefined),
        true,
        'the full file defined nothing',
      );
      assert.ok(
        site.cspReports.every((report) => report.includes('callback.html?control')),
        `violations on the pages that allow what they load: ${site.cspReports.join('\n')}`,
      );
    } finally {
      await site.close();
    }
  },
};
