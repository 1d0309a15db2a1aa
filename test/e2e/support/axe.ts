// axe-core's WCAG 2.0, 2.1 and 2.2 level A and AA rules on a page in Chromium, for the specs that
// audit what they show (a11y.spec.ts, callback-states.spec.ts).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The rule sets audited: WCAG 2.0, 2.1 and 2.2, levels A and AA. */
export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe on the page (and its frames), fails on any violation with what and where, logs the
 * counts, and returns how many checked nodes were inside a shadow root (a target axe gives as a
 * path through shadow hosts), so a test can show the audit saw the element's insides.
 */
export async function audit(page: Page, what: string): Promise<number> {
  const results = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  const found = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  expect(found, `axe violations on ${what}`).toEqual([]);
  const shadow = results.passes.flatMap((rule) => rule.nodes).filter((node) => node.target.some((part) => Array.isArray(part))).length;
  if (process.env['A11Y_DEBUG']) console.log(JSON.stringify(results.passes.map((r) => [r.id, r.nodes.map((n) => n.target)])));
  console.log(
    `axe chromium ${what}: ${results.violations.length} violations, ${results.passes.length} passes, ${results.incomplete.length} incomplete, ${shadow} shadow nodes passed`,
  );
  return shadow;
}
