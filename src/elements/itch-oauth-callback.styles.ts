// The shadow root's style sheet, as text (see itch-login-button.styles.ts); comments stay out of
// it. Dark colours when the page is dark (light-dark() follows the page's color-scheme; every
// browser of docs/concepts/browser-support.md has it, so there is no fallback). Forced colours
// (Windows High Contrast) drop the buttons' background: a system-colour border keeps their edge.
export const styles = /* css */ `
  :host {
    display: block;
    --_accent: var(--itch-login-background, light-dark(#d63b3b, #ff6b6b));
    --_on-accent: var(--itch-login-color, light-dark(#ffffff, #16161a));
    --_error: var(--itch-login-error-color, light-dark(#b3261e, #ffb4ab));
    --_ring: var(--itch-login-focus-ring, light-dark(#1f6feb, #8ab4ff));
  }
  :host([hidden]) {
    display: none;
  }
  [part='status'] {
    margin: 0;
  }
  .error {
    color: var(--_error);
  }
  button {
    margin-top: 0.75em;
    padding: 0.5em 1em;
    border: 0;
    border-radius: var(--itch-login-radius, 6px);
    background: var(--_accent);
    color: var(--_on-accent);
    font: inherit;
    font-weight: 700;
    cursor: pointer;
  }
  button:focus-visible {
    outline: 3px solid var(--_ring);
    outline-offset: 2px;
  }
  @media (forced-colors: active) { button { border: 2px solid ButtonText } }
`;
