import { expect, waitUntil } from '@open-wc/testing';
import { closePopup } from '../../src/core/popup-collect.js';

describe('closePopup', () => {
  it('asks again until the popup reads as closed (a close moments after opening may be dropped), then stops', async () => {
    let asked = 0;
    // The first close is dropped; the second takes.
    const popup = {
      closed: false,
      close() {
        if (++asked === 2) popup.closed = true;
      },
    };
    closePopup(popup as unknown as Window);
    expect(asked).to.equal(1);
    await waitUntil(() => popup.closed, 'the second close', { timeout: 2000 });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(asked).to.equal(2);
  });

  it('leaves a popup it cannot reach (severed: reading it throws) alone', () => {
    const severed = {
      get closed(): boolean {
        throw new DOMException('Blocked a frame', 'SecurityError');
      },
    };
    expect(() => closePopup(severed as unknown as Window)).not.to.throw();
  });
});
