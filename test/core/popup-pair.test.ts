import { expect } from '@open-wc/testing';
import { makePair } from '../../src/core/popup-pair.js';
import { popupBindingOf, popupStateOf, popupStateOfBinding } from '../../src/core/state.js';

// makePair writes the derivations out rather than calling state.ts's functions (which the
// server and the popup's pages use): this holds the two equal.
describe('makePair', () => {
  it('derives the binding and the state as state.ts does', async () => {
    const { verifier, binding, state } = await makePair();
    expect(binding).to.equal(await popupBindingOf(verifier));
    expect(state).to.equal(await popupStateOfBinding(binding));
    expect(state).to.equal(await popupStateOf(verifier));
  });

  it('makes a fresh verifier every time', async () => {
    const [a, b] = await Promise.all([makePair(), makePair()]);
    expect(a.verifier).to.not.equal(b.verifier);
    expect(a.binding).to.not.equal(b.binding);
  });
});
