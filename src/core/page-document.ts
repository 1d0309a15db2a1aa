/*
 * The document's own properties, as markup the page did not write cannot change them.
 *
 * Document's named properties override its built-ins (WebIDL `[LegacyOverrideBuiltIns]`): an
 * `<img name="currentScript">`, a `<form name="head">` or an `<embed name="body">` anywhere in
 * the page (a comment, a profile, a game's description) makes `document.currentScript`,
 * `document.head` or `document.body` that element. `Document.prototype`'s own getters (looked up
 * on the prototype, where no named element is), called on the document, are not shadowed, and
 * `Document` itself is an own property of the window, which named elements never override. The
 * capture asks its own script element here too: the full script-tag file has one such getter.
 *
 * @see https://html.spec.whatwg.org/multipage/dom.html#dom-document-nameditem
 * @see https://webidl.spec.whatwg.org/#LegacyOverrideBuiltIns
 */

type Own = 'currentScript' | 'head' | 'body' | 'documentElement' | 'activeElement' | 'readyState';

/** `document[name]` as the browser defines it, whatever elements the page holds. */
export function documentProperty<K extends Own>(name: K): Document[K] {
  return (Document.prototype as unknown as { __lookupGetter__(name: K): () => Document[K] }).__lookupGetter__(name).call(document);
}

/** `document.createElement(tag)`, whatever elements the page holds. */
export function createElement(tag: string): HTMLElement {
  return Document.prototype.createElement.call(document, tag);
}

/** `document.addEventListener` (or, with `remove`, `removeEventListener`), whatever elements the page holds. */
export function listenOnDocument(type: string, listener: () => void, remove = false): void {
  (remove ? EventTarget.prototype.removeEventListener : EventTarget.prototype.addEventListener).call(document, type, listener);
}

/**
 * The `<script>` element whose classic script is running, or `null` (a module, a callback, an
 * SVG script): never an element that only names itself `currentScript`.
 */
export function ownScript(): HTMLScriptElement | null {
  const script = documentProperty('currentScript');
  return script instanceof HTMLScriptElement ? script : null;
}
