// What a person sees on a page, in every frame and open shadow root: the visible text, the links,
// and whether anything is drawn at all. The new-user path asserts on it after every step.
import { expect, type Page } from '@playwright/test';

/** A raw error code in front of a person (`popup_closed`, `service_unavailable`…): words joined by `_`. */
export const RAW_CODE = /\b[a-z]+_[a-z_]+\b/;

interface Seen {
  text: string;
  links: string[];
  drawn: boolean;
}

/** The visible text, the links' targets and whether a canvas or image shows, in one frame. */
async function seenIn(frame: ReturnType<Page['mainFrame']>): Promise<Seen> {
  return frame.evaluate(() => {
    const texts: string[] = [];
    const links: string[] = [];
    let drawn = false;
    const visible = (element: Element): boolean =>
      typeof element.checkVisibility === 'function' ? element.checkVisibility({ visibilityProperty: true }) : true;
    const walk = (node: Node): void => {
      for (const child of Array.from(node.childNodes)) {
        if (child.nodeType === Node.TEXT_NODE) {
          const parent = child.parentElement;
          if (parent && !['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT'].includes(parent.tagName) && visible(parent))
            texts.push(child.textContent ?? '');
        } else if (child instanceof Element) {
          if (child instanceof HTMLAnchorElement && child.hasAttribute('href') && visible(child)) links.push(child.href);
          if ((child instanceof HTMLCanvasElement || child instanceof HTMLImageElement) && visible(child)) drawn = true;
          if (child.shadowRoot) walk(child.shadowRoot);
          // A slot shows its assigned nodes, which the walk reaches from the light DOM already.
          walk(child);
        }
      }
    };
    if (document.body) walk(document.body);
    return { text: texts.join(' ').replace(/\s+/g, ' ').trim(), links, drawn };
  });
}

/**
 * Asserts (softly, so that one step lists all it found) that the page, with its frames, shows
 * words, no raw code, and no link to a page that does not exist. Returns the text it read.
 */
export async function looksRight(page: Page, step: string): Promise<string> {
  const seen: Seen[] = [];
  for (const frame of page.frames()) {
    if (frame.url().startsWith('chrome-error:') || frame.url() === 'about:blank') continue;
    seen.push(await seenIn(frame).catch(() => ({ text: '', links: [], drawn: false })));
  }
  const text = seen.map((one) => one.text).join(' | ');
  expect
    .soft(
      seen.some((one) => one.text !== '' || one.drawn),
      `${step}: a blank page (${page.url()})`,
    )
    .toBe(true);
  expect.soft(text, `${step}: a raw code in front of the person`).not.toMatch(RAW_CODE);
  for (const link of new Set(seen.flatMap((one) => one.links))) {
    if (!/^https?:/.test(link)) continue;
    const answer = await page.request.get(link, { failOnStatusCode: false, timeout: 10_000 }).catch(() => undefined);
    expect.soft(answer?.status() ?? 0, `${step}: the link ${link} leads to no page`).toBeLessThan(400);
  }
  return text;
}
