import { css } from '../ui/lit.js';

// The shadow root's style sheet, a `css` literal (see itch-login-button.styles.ts); comments stay
// out of it. A card of its own, in the family of the emulator's and the popup's pages: the system's
// font, centred, itch.io's red along its top. Dark colours when the page is dark (light-dark()
// follows the page's color-scheme; every browser of docs/concepts/browser-support.md has it, so
// there is no fallback). Forced colours (Windows High Contrast) keep the system's colours and a
// system-colour border on the card and the buttons. A page restyles it through its parts
// (status: the card; retry, close, store) and custom properties, and sets its font on the element.
// Each custom property is read where it applies, with its default, as in the button's sheet.
export const styles = css`
  :host {
    display: block;
    font: 1rem/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  }
  :host([hidden]) {
    display: none;
  }
  [part='status'] {
    box-sizing: border-box;
    max-width: 28rem;
    margin: 2rem auto;
    padding: 1.5rem 1.75rem;
    text-align: center;
    background: light-dark(#fff, #2b2b2b);
    color: light-dark(#222, #ececec);
    border: 1px solid light-dark(#dadada, #454545);
    border-top: 4px solid var(--itch-login-background, light-dark(#d63b3b, #ff6b6b));
    border-radius: var(--itch-login-radius, 6px);
    box-shadow: 0 2px 8px rgb(0 0 0 / 0.08);
    overflow-wrap: anywhere;
  }
  p {
    margin: 0;
  }
  [part='status'] > * + * {
    margin-top: 0.75em;
  }
  .error {
    color: var(--itch-login-error-color, light-dark(#b3261e, #ffb4ab));
    font-weight: 600;
  }
  a {
    color: inherit;
    text-underline-offset: 0.15em;
  }
  button {
    padding: 0.5em 1.25em;
    border: 1px solid var(--itch-login-background, light-dark(#d63b3b, #ff6b6b));
    border-radius: var(--itch-login-radius, 6px);
    background: var(--itch-login-background, light-dark(#d63b3b, #ff6b6b));
    color: var(--itch-login-color, light-dark(#fff, #16161a));
    font: inherit;
    font-weight: 700;
    cursor: pointer;
  }
  button:focus-visible,
  a:focus-visible {
    outline: 3px solid var(--itch-login-focus-ring, light-dark(#1f6feb, #8ab4ff));
    outline-offset: 2px;
  }
  @media (forced-colors: active) {
    [part='status'] { border: 1px solid CanvasText; border-top-width: 4px; box-shadow: none }
    button { border: 2px solid ButtonText }
    .error { color: CanvasText }
  }
`;
