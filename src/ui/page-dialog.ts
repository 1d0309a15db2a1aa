/*
 * What login()'s two dialogs on the game's page share: drawn as soon as they are put in the page
 * (not in a microtask: the player's next key or click, and the code, must find them), and drawn
 * again in the page's language whenever it changes (see src/i18n/messages.ts).
 */
import { watch } from '../i18n/messages.js';
import { LitElement } from './lit.js';

export class PageDialog extends LitElement {
  #unwatch: (() => void) | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#unwatch = watch(() => this.requestUpdate());
    this.performUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unwatch?.();
  }
}
