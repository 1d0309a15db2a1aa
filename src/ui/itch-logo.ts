import { html } from './lit.js';

/** The itch.io logo, in the text's colour (the login button's `icon` part): decoration, hidden from assistive technology. */
export const itchLogo = html`<svg part="icon" viewBox="0 0 24 24" fill-rule="evenodd" aria-hidden="true" focusable="false"><path d="M3 2h18l3 5.2c0 1.7-1.3 3-3 3s-3-1.3-3-3c0 1.7-1.3 3-3 3s-3-1.3-3-3c0 1.7-1.3 3-3 3s-3-1.3-3-3c0 1.7-1.3 3-3 3S0 8.9 0 7.2zM1.5 11.8C1 16 1 19 2 21c5 1.3 15 1.3 20 0 1-2 1-5 .5-9.2-1 .4-2.4.4-3.5-.3-.9.6-2 .9-3 .9s-2.1-.3-3-.9c-.9.6-2 .9-3 .9s-2.1-.3-3-.9c-1.1.7-2.5.7-3.5.3zM8 14.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm8 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z"/></svg>`;
