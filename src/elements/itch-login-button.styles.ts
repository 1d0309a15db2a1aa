import { css } from '../ui/lit.js';

// One set of measures, in em, for the upgraded button and for the rule that holds its place before
// the element upgrades, so the page does not shift when it does. Numbers, as Lit's `css` tag takes
// them in its literals (https://lit.dev/docs/components/styles/#expressions).
const PADDING_BLOCK = 0.6;
const PADDING_INLINE = 1.1;
const ICON = 1.25;
const GAP = 0.55;
const HEIGHT = 2.75;

/**
 * Put this in the page's CSS when the element is loaded late (an npm import in a module script),
 * so its label takes the upgraded button's box before the upgrade. The script-tag file in
 * `<head>` defines the element before the body is parsed and needs no such rule.
 * @group Elements
 */
export const ITCH_LOGIN_BUTTON_PREUPGRADE_CSS = `itch-login-button:not(:defined) {
  display: inline-flex; align-items: center; box-sizing: border-box; vertical-align: middle;
  min-height: ${HEIGHT}em; line-height: 1.2; font-weight: 700;
  padding: ${PADDING_BLOCK}em ${PADDING_INLINE}em ${PADDING_BLOCK}em calc(${PADDING_INLINE}em + ${ICON}em + ${GAP}em);
  border-radius: 6px; background: #d63b3b; color: #fff;
}
@supports (color: light-dark(#000, #fff)) {
  itch-login-button:not(:defined) { background: light-dark(#d63b3b, #ff6b6b); color: light-dark(#fff, #16161a); }
}`;

// The shadow root's style sheet, a `css` literal (https://lit.dev/docs/components/styles/): Lit
// adopts it as a constructable sheet, and the script-tag builds minify its text (see
// vite.config.ts). Comments stay out of the text: it is shipped as is. Dark colours when the page is dark: light-dark() (in
// every browser of docs/concepts/browser-support.md, so without a fallback:
// https://developer.mozilla.org/en-US/docs/Web/CSS/color_value/light-dark) follows the page's
// color-scheme, so a page that only declares light stays light even when the system is dark.
// Forced colours (Windows High Contrast) drop the background: a system-colour border keeps the
// button's edge. A reduced-motion preference stops the hover fade. The login button fills its
// element's box, whatever display the page gives the element (block, a width, a height), so that
// every point of that box takes the click (a button's auto width is its content's, also as a
// block: https://html.spec.whatwg.org/multipage/rendering.html#button-layout); Cancel beside it
// keeps its own width. Each custom property of the element's is read where it applies, with its
// default beside it: no private aliases on :host (the text is shipped).
export const styles = css`
  :host {
    display: inline-flex;
    vertical-align: middle;
  }
  :host([hidden]) {
    display: none;
  }
  button {
    all: unset;
    box-sizing: border-box;
    display: inline-flex;
    align-items: center;
    gap: ${GAP}em;
    min-height: ${HEIGHT}em;
    padding: ${PADDING_BLOCK}em ${PADDING_INLINE}em;
    border-radius: var(--itch-login-radius, 6px);
    background: var(--itch-login-background, light-dark(#d63b3b, #ff6b6b));
    color: var(--itch-login-color, light-dark(#fff, #16161a));
    font: var(--itch-login-font, inherit);
    font-weight: 700;
    line-height: 1.2;
    cursor: pointer;
    transition: background-color 120ms;
  }
  button:hover:not(:disabled) {
    background: var(--itch-login-background-hover, light-dark(#c93030, #ff8a8a));
  }
  button:focus-visible {
    outline: 3px solid var(--itch-login-focus-ring, light-dark(#1f6feb, #8ab4ff));
    outline-offset: 2px;
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.55;
  }
  [part='button'] {
    width: 100%;
    height: 100%;
    justify-content: center;
  }
  [part='cancel'] {
    flex: none;
    background: none !important;
    color: inherit;
    text-decoration: underline;
  }
  [part='icon'] {
    width: ${ICON}em;
    height: ${ICON}em;
    flex: none;
    fill: currentColor;
  }
  @media (forced-colors: active) { button { border: 2px solid ButtonText } }
  @media (prefers-reduced-motion: reduce) { button { transition: none } }
`;
