import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
    --_accent: var(--itch-login-background, #d63b3b);
    --_on-accent: var(--itch-login-color, #ffffff);
    --_error: var(--itch-login-error-color, #b3261e);
    --_ring: var(--itch-login-focus-ring, #1f6feb);
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_accent: var(--itch-login-background, #ff6b6b);
      --_on-accent: var(--itch-login-color, #16161a);
      --_error: var(--itch-login-error-color, #ffb4ab);
      --_ring: var(--itch-login-focus-ring, #8ab4ff);
    }
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
  [part='retry'] {
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
  [part='retry']:focus-visible {
    outline: 3px solid var(--_ring);
    outline-offset: 2px;
  }
`;
