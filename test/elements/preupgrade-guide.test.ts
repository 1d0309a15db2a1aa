// The styling guide's pre-upgrade rule, as a page that imports the package late uses it: the
// guide's listing (fixtures/styling-guide-preupgrade.ts) runs, then the button upgrades in place,
// and its box stays where it was. Against the built package, as the guide imports it.
import { expect, fixture, html } from '@open-wc/testing';

describe("the styling guide's pre-upgrade rule", () => {
  it('gives the button its upgraded box before the elements are defined', async () => {
    expect(customElements.get('itch-login-button'), 'nothing has defined the elements yet').to.equal(undefined);
    await import('./fixtures/styling-guide-preupgrade.js');
    const host = await fixture<HTMLElement>(
      html`<div style="font: 16px sans-serif">
        <p>Above</p>
        <itch-login-button client-id="c" redirect-uri="https://example.test/cb">Log in with itch.io</itch-login-button>
        <p id="below">Below</p>
      </div>`,
    );
    const button = host.querySelector('itch-login-button')!;
    const below = host.querySelector('#below')!;
    const before = { button: button.getBoundingClientRect(), below: below.getBoundingClientRect() };
    await import('itch-oauth-widget/define');
    await customElements.whenDefined('itch-login-button');
    await (button as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    const after = { button: button.getBoundingClientRect(), below: below.getBoundingClientRect() };
    expect(after.button.height, 'the upgrade gave the button a box').to.be.above(20);
    expect(Math.abs(after.button.width - before.button.width), 'width').to.be.below(1.5);
    expect(Math.abs(after.button.height - before.button.height), 'height').to.be.below(1.5);
    expect(Math.abs(after.below.top - before.below.top), 'what follows the button').to.be.below(1.5);
  });
});
