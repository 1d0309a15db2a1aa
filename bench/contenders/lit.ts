// Lit's share of the button, bundled alone: exactly what the button's module imports from it.
export { LitElement, html, css, nothing, unsafeCSS } from 'lit';
