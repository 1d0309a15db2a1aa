// Every state a player can meet on the callback page of a redirect login, in real Chromium, as the
// README's page has it (the capture first in <head>, <itch-oauth-callback> and the full file at the
// end): what it says, which controls it offers, and where each leads once clicked: Try again
// starts the same login again, "Back to the site" goes to the page the login started from (its
// return-to) or, when this tab cannot know it, to the site's root. axe-core audits each state in
// light and dark, and the tests take the screenshots of docs/concepts/how-it-works.md
// (docs/screenshots/callback-*.png). The popup's endings are popup-end.spec.ts's.
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { audit } from './support/axe.js';
import { launchCookieBlockingChromium } from './support/cookies-blocked.js';
import { startFlow, startSite, type Site } from './support/site.js';

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url);
const STORE = 'https://pixelforge.itch.io/starfall-keep';
/** Where the button's login started (the flow's return-to, see support/site.ts). */
const RETURN_TO = '/return.html?from=login';

let site: Site;
test.beforeEach(async () => {
  site = await startSite();
  site.page = callbackPage();
});
test.afterEach(async () => {
  await site.close();
});
// The capture retries a server that fails for about 4 s; each state is audited twice.
test.describe.configure({ timeout: 60_000 });

/** The README's callback page, light and dark, with nothing of the site's own around the element. */
function callbackPage(attributes = '', noRedirect = false): Site['page'] {
  return {
    hostile: false,
    heading: '',
    // The title, the colour schemes and the pending view's style before the capture, as
    // examples/static-node/public/callback.html has them: nothing after it is parsed while it works.
    headStart:
      '<title>Logging in</title><meta name="color-scheme" content="light dark">' +
      '<style>output { display: block; margin: 3rem auto; font: 1.25rem system-ui, sans-serif; text-align: center; }</style>',
    noRedirect,
    body: `<itch-oauth-callback ${attributes}${noRedirect ? ' no-redirect' : ''}></itch-oauth-callback><script src="/dist/itch-oauth.iife.js"></script>`,
  };
}

/** A login the button started in this tab (its flow under `state`), answered by the fake itch.io. */
async function loginThrough(page: Page, state = 'S1', record: Record<string, unknown> = {}): Promise<void> {
  await startFlow(page, site, state, record);
  await page.goto(`${site.authUrl}/user/oauth?redirect_uri=${encodeURIComponent(`${site.url}/callback.html`)}&state=${state}`);
}

/** The element's message region. */
const card = (page: Page) => page.locator('itch-oauth-callback [part=status]');

/**
 * The failure's controls, once the element has settled (the focus on the first of them, as after
 * every failure): Try again or not, and the link back with its address.
 */
async function expectWayOn(page: Page, { retry, back }: { retry: boolean; back: string }): Promise<void> {
  const alert = page.getByRole('alert');
  const link = alert.getByRole('link', { name: 'Back to the site' });
  await expect(link).toHaveAttribute('href', back);
  await expect(alert.getByRole('button', { name: 'Try again' })).toHaveCount(retry ? 1 : 0);
  await expect(retry ? alert.getByRole('button', { name: 'Try again' }) : link).toBeFocused();
  await expect(alert.getByRole('button', { name: 'Close' })).toHaveCount(0);
}

/**
 * The state in light and in dark: axe finds nothing (and checked the element's insides), and a
 * screenshot of each goes to docs/screenshots/callback-<name>[-dark].png.
 */
async function lookAt(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width: 480, height: 360 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const shadow = await audit(page, `callback ${name} (${scheme})`);
    // (The capture's pending view is no element: it has no shadow root.)
    if (name !== 'pending') expect(shadow, 'axe checked nodes inside the shadow root').toBeGreaterThan(0);
    const file = `callback-${name}${scheme === 'dark' ? '-dark' : ''}.png`;
    await page.screenshot({ path: new URL(file, SCREENSHOTS).pathname, fullPage: true, timeout: 5_000 });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Clicks the link back and waits for the page it leads to. */
async function goBack(page: Page, to: string): Promise<void> {
  await page.getByRole('link', { name: 'Back to the site' }).click();
  await page.waitForURL(`${site.url}${to}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(to.split('?')[0]!);
}

/** Clicks Try again: a new login of the same application, with a new state, that this time succeeds. */
async function tryAgain(page: Page): Promise<void> {
  const asked: URL[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(site.authUrl)) asked.push(new URL(request.url()));
  });
  site.authorizeWith = { token: 'SECOND_TRY' };
  site.backendStatuses = [200];
  const calls = site.backendCalls.length;
  await page.getByRole('button', { name: 'Try again' }).click();
  await page.waitForURL(`${site.url}${RETURN_TO}`);
  expect(asked).toHaveLength(1);
  expect(Object.fromEntries(asked[0]!.searchParams)).toMatchObject({ client_id: 'client', scope: 'profile:me', response_type: 'token' });
  expect(asked[0]!.searchParams.get('state')).not.toBe('S1');
  expect(site.backendCalls.slice(calls).map((call) => JSON.parse(call.body))).toEqual([{ access_token: 'SECOND_TRY' }]);
}

test.describe('on the way', () => {
  test('pending: "Signing you in…" while the server answers, then on to where the login started, by itself', async ({ page }) => {
    let release = () => {};
    site.backendHold = new Promise<void>((resolve) => (release = resolve));
    await startFlow(page, site);
    await page.goto(`${site.authUrl}/user/oauth?redirect_uri=${encodeURIComponent(`${site.url}/callback.html`)}&state=S1`, {
      waitUntil: 'commit',
    });
    await expect(page.getByRole('status')).toHaveText('Signing you in…');
    await expect.poll(() => site.backendCalls.length).toBe(1);
    await lookAt(page, 'pending');
    release();
    await page.waitForURL(`${site.url}${RETURN_TO}`);
  });

  test('success: the player goes on to where the login started; with no-redirect the page says so', async ({ page }) => {
    await loginThrough(page);
    await page.waitForURL(`${site.url}${RETURN_TO}`);

    site.page = callbackPage('', true);
    await loginThrough(page, 'S2');
    await expect(page.getByRole('status')).toHaveText("You're logged in with itch.io.");
    await expect(card(page).getByRole('link')).toHaveCount(0);
    await lookAt(page, 'success');
  });
});

test.describe('after a failure the player reads what happened and can go on', () => {
  test('access_denied: declined on itch.io; Try again and a link back to where the login started', async ({ page }) => {
    site.authorizeWith = { error: 'access_denied' };
    await loginThrough(page);
    await expect(page.getByRole('alert')).toContainText('You declined the login on itch.io.');
    await expectWayOn(page, { retry: true, back: RETURN_TO });
    await lookAt(page, 'access-denied');
    await goBack(page, RETURN_TO);
  });

  test('access_denied: Try again logs in with the same application and a new state', async ({ page }) => {
    site.authorizeWith = { error: 'access_denied' };
    await loginThrough(page);
    await expectWayOn(page, { retry: true, back: RETURN_TO });
    await tryAgain(page);
  });

  test('service_unavailable: not answering, try again in a minute (never "refused"); Try again works once the server is back', async ({
    page,
  }) => {
    site.backendStatuses = [503];
    await loginThrough(page);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText("This site's server or itch.io is not answering right now. Try again in a minute.", {
      timeout: 20_000,
    });
    await expect(alert).not.toContainText('refused');
    await expectWayOn(page, { retry: true, back: RETURN_TO });
    await lookAt(page, 'service-unavailable');
    await tryAgain(page);
  });

  test('service_unavailable: the link back leads to where the login started', async ({ page }) => {
    // The server cannot be reached at all.
    site.backendStatuses = [0];
    await loginThrough(page);
    await expect(page.getByRole('alert')).toContainText('not answering right now', { timeout: 20_000 });
    await expectWayOn(page, { retry: true, back: RETURN_TO });
    await goBack(page, RETURN_TO);
  });

  test('backend_rejected: the server refused; Try again and the link back', async ({ page }) => {
    site.backendStatuses = [403];
    await loginThrough(page);
    await expect(page.getByRole('alert')).toContainText("This site's server refused the login.");
    await expectWayOn(page, { retry: true, back: RETURN_TO });
    await lookAt(page, 'backend-rejected');
    await goBack(page, RETURN_TO);
  });

  test('not_owner: own the game to continue; the store link, Try again (another account) and the link back', async ({ page }) => {
    site.page = callbackPage(`store-url="${STORE}"`);
    site.backendStatuses = [403];
    site.refusal = { errors: ['the user does not own game 2001'], code: 'not_owner' };
    await loginThrough(page);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('You need to own this game on itch.io to continue.');
    await expect(alert.getByRole('link', { name: 'Get it on itch.io' })).toHaveAttribute('href', STORE);
    await expectWayOn(page, { retry: true, back: RETURN_TO });
    await lookAt(page, 'not-owner');
    await goBack(page, RETURN_TO);
  });

  test('invalid_response: an answer from itch.io that could not be read; Try again and the link back', async ({ page }) => {
    site.authorizeWith = { error: 'server_error' };
    await loginThrough(page);
    await expect(page.getByRole('alert')).toContainText('itch.io sent back an answer that could not be read.');
    await expectWayOn(page, { retry: true, back: RETURN_TO });
    await lookAt(page, 'invalid-response');
    await goBack(page, RETURN_TO);
  });

  test('config_invalid: not set up correctly on this site; no Try again (it would fail the same way), the link back', async ({ page }) => {
    // A token endpoint on another origin, which the page did not allow (data-cross-origin).
    site.page = { ...callbackPage(), backend: 'https://elsewhere.example/auth/itch' };
    await loginThrough(page);
    await expect(page.getByRole('alert')).toContainText('Logging in with itch.io is not set up correctly on this site.');
    await expectWayOn(page, { retry: false, back: RETURN_TO });
    expect(site.backendCalls).toEqual([]);
    await lookAt(page, 'config-invalid');
    await goBack(page, RETURN_TO);
  });

  test('state_expired: longer than 10 minutes; this tab no longer knows the login, so the link back goes to the root', async ({ page }) => {
    await loginThrough(page, 'OLD', { createdAt: Date.now() - 11 * 60 * 1000 });
    await expect(page.getByRole('alert')).toContainText('The login took longer than 10 minutes.');
    await expectWayOn(page, { retry: false, back: '/' });
    expect(site.backendCalls).toEqual([]);
    await lookAt(page, 'state-expired');
    await goBack(page, '/');
  });

  test('state_missing: an answer without a state (not started here); the link back to the root', async ({ page }) => {
    await page.goto(`${site.url}/start.html`);
    await page.goto(`${site.url}/callback.html#access_token=PLANTED`);
    await expect(page.getByRole('alert')).toContainText('This login was not started on this site, so it was not completed.');
    await expectWayOn(page, { retry: false, back: '/' });
    expect(site.backendCalls).toEqual([]);
    await lookAt(page, 'state-missing');
    await goBack(page, '/');
  });
});

test.describe('opened again', () => {
  test('in a second tab after the login: the link works once, in the tab that started it; no claim of a login, nothing sent, a link back', async ({
    page,
    context,
  }) => {
    await loginThrough(page);
    await page.waitForURL(`${site.url}${RETURN_TO}`);
    expect(site.backendCalls).toHaveLength(1);

    // The same answer from itch.io, opened in another tab (its address pasted, or restored).
    const second = await context.newPage();
    await second.goto(`${site.url}/callback.html#access_token=TOKEN&state=S1`);
    const alert = second.getByRole('alert');
    await expect(alert).toContainText(
      "This login link works only once, in the tab where the login started, so it did nothing here. If you finished logging in there, you're already logged in.",
    );
    await expect(alert).not.toContainText("You're logged in");
    await expectWayOn(second, { retry: false, back: '/' });
    expect(site.backendCalls, 'the token was not sent again').toHaveLength(1);
    await lookAt(second, 'second-tab');
    await goBack(second, '/');
  });

  test('a planted answer with a state this browser never made reads the same: nothing claimed, nothing sent', async ({ page }) => {
    await page.goto(`${site.url}/start.html`);
    await page.goto(`${site.url}/callback.html#access_token=ATTACKERS&state=picked-by-someone-else`);
    await expect(page.getByRole('alert')).toContainText('This login link works only once, in the tab where the login started');
    await expect(page.getByRole('alert')).not.toContainText("You're logged in");
    expect(site.backendCalls).toEqual([]);
    await expectWayOn(page, { retry: false, back: '/' });
  });

  test('reloaded after the outcome: no login in progress, and a link back to the site', async ({ page }) => {
    site.authorizeWith = { error: 'access_denied' };
    await loginThrough(page);
    await expect(page.getByRole('alert')).toContainText('You declined');
    await page.reload();
    const status = page.getByRole('status');
    await expect(status).toContainText('No itch.io login in progress.');
    const back = status.getByRole('link', { name: 'Back to the site' });
    await expect(back).toHaveAttribute('href', '/');
    await lookAt(page, 'no-login');
    await goBack(page, '/');
  });
});

test.describe('a browser that refuses cookies and site data', () => {
  let blocked: Awaited<ReturnType<typeof launchCookieBlockingChromium>>;
  test.beforeEach(async () => {
    blocked = await launchCookieBlockingChromium();
  });
  test.afterEach(async () => {
    await blocked.close();
  });

  test('cookies_blocked: which setting to change, and a link back to the root (the tab cannot keep where the login started)', async () => {
    const page = await blocked.context.newPage();
    await page.goto(`${site.url}/start.html`);
    await page.goto(`${site.url}/callback.html#access_token=T&state=S1`);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(
      "Your browser is blocking the cookies this login needs. Allow cookies for this site in your browser's privacy settings (cookies and site data), then try again.",
    );
    await expectWayOn(page, { retry: false, back: '/' });
    expect(site.backendCalls).toEqual([]);
    await lookAt(page, 'cookies-blocked');
    await goBack(page, '/');
  });
});
