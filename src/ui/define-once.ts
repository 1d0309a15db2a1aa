/**
 * Registers `element` as `tag` unless the tag is taken (by a second copy of the package on the
 * page: the button file beside the full one draws the same dialogs), and returns the tag. For the
 * dialogs `login()` draws, which a page never writes in its markup.
 */
export function defineOnce(tag: string, element: CustomElementConstructor): string {
  if (!customElements.get(tag)) customElements.define(tag, element);
  return tag;
}
