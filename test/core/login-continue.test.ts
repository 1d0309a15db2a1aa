// login() called with no user activation left (a game loop, code after an await): the
// "Continue with itch.io" button, whose real click opens the popup (src/ui/continue-button.ts).
import { expect, waitUntil } from '@open-wc/testing';
import { emulateMedia, resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { ItchOAuthError } from '../../src/core/errors.js';
import { preparePopupLogin, type LoginOptions } from '../../src/core/login.js';
import { login } from '../../src/ui/login.js';
import { widget as en } from '../../src/i18n/locales/en.js';

const OPTIONS: LoginOptions = {
  clientId: 'abc',
  redirectUri: 'https://game.example/callback.html',
  backend: '/auth/itch',
  mode: 'popup',
};

/** What the browser says of the page's activation, for one test: `undefined` is an engine without the API. */
function activation(state: { isActive: boolean } | undefined): () => void {
  Object.defineProperty(navigator, 'userActivation', { value: state, configurable: true });
  return () => void delete (navigator as { userActivation?: unknown }).userActivation;
}

/** Replaces window.open and fetch; `restore()` puts them back. */
function stubWindow(open: () => Window | null) {
  const realOpen = window.open;
  const realFetch = window.fetch;
  const opened: string[] = [];
  window.open = ((url: string) => (opened.push(url), open())) as typeof window.open;
  window.fetch = (async () => Response.json({ user: { id: 7 } })) as typeof window.fetch;
  return {
    opened,
    restore() {
      window.open = realOpen;
      window.fetch = realFetch;
    },
  };
}

const fakePopup = () => ({ closed: false, close() {}, focus() {}, location: { href: '' } }) as unknown as Window;

/** The shadow roots of the Continue buttons on the page. */
const shownButtons = () =>
  [...document.body.children].flatMap((element) => (element.shadowRoot?.querySelector('dialog') ? [element.shadowRoot] : []));

function part(name: string): HTMLButtonElement {
  const [root] = shownButtons();
  expect(root, 'the Continue button is shown').not.to.equal(undefined);
  return root!.querySelector(`[part=${name}]`)!;
}

/** A real click (the browser's own input, with its user activation) in the middle of the element. */
async function realClick(element: Element): Promise<void> {
  const box = element.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof ItchOAuthError ? error.code : String(error)),
  );

describe('login() without a user activation', () => {
  let undo: (() => void)[] = [];
  beforeEach(async () => {
    await preparePopupLogin();
  });
  /** An input of the page, focused (the game's canvas, say), removed after the test. */
  const focusedInput = () => {
    const input = document.createElement('input');
    document.body.append(input);
    undo.push(() => input.remove());
    input.focus();
    return input;
  };
  afterEach(async () => {
    for (const step of undo.reverse()) step();
    undo = [];
    await resetMouse();
  });

  it('shows a Continue button, focused, instead of a popup the browser would block', async () => {
    undo.push(activation({ isActive: false }));
    const stub = stubWindow(fakePopup);
    undo.push(stub.restore);
    const cancel = new AbortController();
    const result = login({ ...OPTIONS, signal: cancel.signal });
    expect(stub.opened, 'no window.open without an activation').to.deep.equal([]);
    const root = shownButtons()[0]!;
    const dialog = root.querySelector('dialog')!;
    expect(dialog.open).to.equal(true);
    expect(dialog.matches(':modal'), 'modal: in the top layer, above a full-screen canvas').to.equal(true);
    expect(dialog.getAttribute('aria-label')).to.equal(en.login);
    expect(part('continue').textContent).to.equal(en.continue);
    expect(part('dismiss').textContent).to.equal(en.dismiss);
    expect(root.activeElement, 'the focus is on Continue').to.equal(part('continue'));
    cancel.abort();
    expect(await codeOf(result)).to.equal('aborted');
  });

  it('keeps a visible outline in forced colors, and does not animate', async () => {
    undo.push(activation({ isActive: false }));
    await emulateMedia({ forcedColors: 'active', reducedMotion: 'reduce' });
    undo.push(() => void emulateMedia({ forcedColors: 'none', reducedMotion: 'no-preference' }));
    const cancel = new AbortController();
    const result = login({ ...OPTIONS, signal: cancel.signal });
    const dialog = shownButtons()[0]!.querySelector('dialog')!;
    const style = getComputedStyle(dialog);
    expect(style.borderTopStyle).to.equal('solid');
    expect(style.borderTopColor, 'forced colors draw the border').not.to.equal('rgba(0, 0, 0, 0)');
    expect(dialog.getAnimations({ subtree: true })).to.deep.equal([]);
    cancel.abort();
    expect(await codeOf(result)).to.equal('aborted');
  });

  it('opens the popup in the real click on Continue and resolves with the backend answer', async () => {
    undo.push(activation({ isActive: false }));
    const stub = stubWindow(fakePopup);
    undo.push(stub.restore);
    const result = login(OPTIONS);
    await realClick(part('continue'));
    expect(stub.opened, 'opened in the click').to.have.length(1);
    const start = new URL(stub.opened[0]!);
    expect(start.origin + start.pathname).to.equal(new URL(OPTIONS.backend!, location.href).href);
    expect(start.searchParams.get('state')).to.match(/^p\.[A-Za-z0-9_-]{43}$/);
    expect(await result).to.deep.equal({ response: { user: { id: 7 } } });
    expect(shownButtons(), 'the button is gone').to.deep.equal([]);
  });

  it("ignores a click that the page's script makes on Continue", async () => {
    undo.push(activation({ isActive: false }));
    const stub = stubWindow(fakePopup);
    undo.push(stub.restore);
    const cancel = new AbortController();
    const result = login({ ...OPTIONS, signal: cancel.signal });
    part('continue').click();
    part('continue').dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
    part('dismiss').click();
    expect(stub.opened, 'nothing opened').to.deep.equal([]);
    expect(shownButtons(), 'still waiting for the person').to.have.length(1);
    cancel.abort();
    expect(await codeOf(result)).to.equal('aborted');
  });

  it('rejects with popup_closed on Escape, and gives the focus back', async () => {
    undo.push(activation({ isActive: false }));
    const stub = stubWindow(fakePopup);
    undo.push(stub.restore);
    const input = focusedInput();
    const outcome = codeOf(login(OPTIONS));
    expect(document.activeElement).not.to.equal(input);
    await sendKeys({ press: 'Escape' });
    expect(await outcome).to.equal('popup_closed');
    expect(shownButtons()).to.deep.equal([]);
    expect(document.activeElement, 'the focus is back where it was').to.equal(input);
    expect(stub.opened).to.deep.equal([]);
  });

  it('rejects with popup_closed on a real click on Cancel', async () => {
    undo.push(activation({ isActive: false }));
    const stub = stubWindow(fakePopup);
    undo.push(stub.restore);
    const outcome = codeOf(login(OPTIONS));
    await realClick(part('dismiss'));
    expect(await outcome).to.equal('popup_closed');
    expect(shownButtons()).to.deep.equal([]);
    expect(stub.opened).to.deep.equal([]);
  });

  it('removes the button and rejects with aborted when the signal aborts', async () => {
    undo.push(activation({ isActive: false }));
    const cancel = new AbortController();
    const result = login({ ...OPTIONS, signal: cancel.signal });
    expect(shownButtons()).to.have.length(1);
    cancel.abort(new Error('the game quit'));
    const error = await result.catch((failure: unknown) => failure);
    expect(error).to.be.instanceOf(ItchOAuthError).with.property('code', 'aborted');
    expect((error as Error).cause).to.have.property('message', 'the game quit');
    expect(shownButtons()).to.deep.equal([]);
  });

  it('shows one button for a second call while it is shown, and both calls get the one outcome', async () => {
    undo.push(activation({ isActive: false }));
    const stub = stubWindow(fakePopup);
    undo.push(stub.restore);
    const first = login(OPTIONS);
    const second = login(OPTIONS);
    expect(shownButtons()).to.have.length(1);
    await realClick(part('continue'));
    expect(stub.opened).to.have.length(1);
    expect(await first).to.deep.equal({ response: { user: { id: 7 } } });
    expect(await second).to.deep.equal({ response: { user: { id: 7 } } });
  });

  it("ends only its own wait when a second call's signal aborts: the first call still gets the login", async () => {
    undo.push(activation({ isActive: false }));
    const stub = stubWindow(fakePopup);
    undo.push(stub.restore);
    const first = login(OPTIONS);
    const cancel = new AbortController();
    const second = codeOf(login({ ...OPTIONS, signal: cancel.signal }));
    cancel.abort();
    expect(await second).to.equal('aborted');
    expect(shownButtons(), 'the first call still waits for the person').to.have.length(1);
    await realClick(part('continue'));
    expect(stub.opened).to.have.length(1);
    expect(await first).to.deep.equal({ response: { user: { id: 7 } } });
  });

  it('cancels the login it started, closing its popup, once every waiting call aborted', async () => {
    undo.push(activation({ isActive: false }));
    let closed = false;
    const stub = stubWindow(() => ({ ...fakePopup(), close: () => void (closed = true) }) as unknown as Window);
    undo.push(stub.restore);
    // The backend has no outcome yet: the login waits for its popup.
    window.fetch = (async () => Response.json({ pending: true }, { status: 202 })) as typeof window.fetch;
    const cancels = [new AbortController(), new AbortController()];
    const outcomes = cancels.map((cancel) => codeOf(login({ ...OPTIONS, signal: cancel.signal })));
    await realClick(part('continue'));
    expect(stub.opened).to.have.length(1);
    cancels[0]!.abort();
    expect(await outcomes[0]).to.equal('aborted');
    expect(closed, 'the other call still waits: the popup stays').to.equal(false);
    cancels[1]!.abort();
    expect(await outcomes[1]).to.equal('aborted');
    // Closed once its start page asked, or after a second (a popup closed while its first page
    // loads may stay open).
    await waitUntil(() => closed, 'no call waits any more: the popup is closed', { timeout: 2500 });
  });

  it('is not pressed by a key held down since before it showed, only by one pressed anew', async () => {
    undo.push(activation({ isActive: false }));
    const stub = stubWindow(fakePopup);
    undo.push(stub.restore);
    focusedInput();
    // The game's Enter is down when the login starts; the browser then repeats it on the button.
    await sendKeys({ down: 'Enter' });
    const result = login(OPTIONS);
    expect(part('continue').matches(':focus'), 'the button has the focus').to.equal(true);
    for (let repeat = 0; repeat < 3; repeat++) await sendKeys({ down: 'Enter' });
    await sendKeys({ up: 'Enter' });
    expect(stub.opened, 'a held key opened nothing').to.deep.equal([]);
    await sendKeys({ press: 'Enter' });
    expect(stub.opened, 'a new press opens the popup').to.have.length(1);
    expect(await result).to.deep.equal({ response: { user: { id: 7 } } });
  });

  it('rejects with popup_blocked when the popup is refused even in the click on Continue: the page stays', async () => {
    undo.push(activation({ isActive: false }));
    const stub = stubWindow(() => null);
    undo.push(stub.restore);
    const here = location.href;
    const outcome = codeOf(login(OPTIONS));
    await realClick(part('continue'));
    expect(stub.opened, 'tried in the click').to.have.length(1);
    expect(await outcome).to.equal('popup_blocked');
    expect(location.href, 'no redirect to itch.io').to.equal(here);
    expect(sessionStorage.length, 'no redirect login was saved').to.equal(0);
  });

  it('opens the popup at once, with no button, while the page has its activation', async () => {
    undo.push(activation({ isActive: true }));
    const stub = stubWindow(fakePopup);
    undo.push(stub.restore);
    const result = login(OPTIONS);
    expect(stub.opened).to.have.length(1);
    expect(shownButtons()).to.deep.equal([]);
    expect(await result).to.deep.equal({ response: { user: { id: 7 } } });
  });

  for (const [engine, state] of [
    ['an engine without userActivation', undefined],
    ['WebKit a frame after the click: active, yet its blocker refuses', { isActive: true }],
  ] as const) {
    it(`shows the button when the popup is refused (${engine})`, async () => {
      undo.push(activation(state));
      const stub = stubWindow(() => null);
      undo.push(stub.restore);
      const cancel = new AbortController();
      const result = login({ ...OPTIONS, signal: cancel.signal });
      expect(stub.opened, 'tried once').to.have.length(1);
      await new Promise((resolve) => setTimeout(resolve));
      expect(shownButtons()).to.have.length(1);
      cancel.abort();
      expect(await codeOf(result)).to.equal('aborted');
    });
  }

  it('leaves redirect mode as it was: it needs no activation', async () => {
    undo.push(activation({ isActive: false }));
    // A bad configuration still rejects at once, without a button.
    expect(await codeOf(login({ ...OPTIONS, backend: undefined }))).to.equal('config_invalid');
    expect(shownButtons()).to.deep.equal([]);
  });
});
