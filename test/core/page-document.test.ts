// Elements the page did not write, named after the document's own properties (Document's named
// properties override its built-ins), steer nothing the package draws: the Continue dialog and the
// code go into the real <body>, whatever <img name="body"> or <form name="activeElement"> says.
import { expect } from '@open-wc/testing';
import { documentProperty, ownScript } from '../../src/core/page-document.js';
import { showCode } from '../../src/ui/code-overlay.js';
import { showContinue } from '../../src/ui/continue-button.js';

const planted: HTMLElement[] = [];
function plant(markup: string): void {
  const holder = document.createElement('div');
  holder.innerHTML = markup;
  planted.push(holder);
  document.body.append(holder);
}

describe('the real document, behind named elements', () => {
  afterEach(() => {
    for (const holder of planted.splice(0)) holder.remove();
    showCode(undefined);
  });

  it('reads the document\u2019s own properties, not the elements named after them', () => {
    plant('<img name="body" alt=""><form name="documentElement"></form><img name="currentScript" alt="">');
    expect((document as unknown as Record<string, unknown>)['body']).to.be.instanceOf(HTMLImageElement, 'control: the name shadows it');
    expect(documentProperty('body')).to.equal(Object.getOwnPropertyDescriptor(Document.prototype, 'body')!.get!.call(document));
    expect(documentProperty('body')!.localName).to.equal('body');
    expect(documentProperty('documentElement').localName).to.equal('html');
    expect(ownScript()).to.equal(null);
  });

  it('the Continue dialog goes into the real <body>, and the code too', () => {
    plant('<img name="body" alt=""><form name="activeElement"></form>');
    const remove = showContinue(
      () => undefined,
      () => undefined,
    );
    try {
      const host = document.querySelector('itch-oauth-continue')!;
      expect(host.parentElement!.localName).to.equal('body');
    } finally {
      remove();
    }
    showCode('123456');
    expect(document.querySelector('itch-oauth-code')!.parentElement!.localName).to.equal('body');
  });
});
