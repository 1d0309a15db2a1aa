// Lit's share of the button, bundled alone: exactly what the button's module imports from it.
export { LitElement, html, css, unsafeCSS } from 'lit';
export { property, state } from 'lit/decorators.js';
