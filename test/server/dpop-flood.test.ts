// An unauthenticated flood of DPoP proofs, attacked: without a store, the proofs' jtis are kept in
// memory (50,000 at most), and when that is full every proof no newer than the oldest forgotten one
// is refused, so that none is ever accepted twice. A request whose game token is made up must then
// use up no room: otherwise anyone, with no login and a key of their own, fills it with proofs
// dated 5 minutes ahead and every player's next request is refused as a replay for 5 minutes.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createSessions, createTokenHandler } from '../../src/server/index.js';
import { DPOP_WINDOW_S } from '../../src/server/sessions/dpop.js';
import { dpopKey, dpopProof } from '../support/dpop.js';
import { fakeItch as fakeItchFor } from './support/fake-itch.js';

const SITE = 'https://game.example';
const GAME = 'https://html-classic.itch.zone';
const SECRET = 'correct horse battery staple, 32+ characters long';
const TOKEN = 'ItchAccessToken0123456789abcdefghijklmno';
const user = { id: 1, username: 'leafo', url: 'https://leafo.itch.io', gamer: true, developer: true, press_user: false };
/** More proofs than the in-memory replay cache holds (50,000). */
const FLOOD = 50_001;

it('a flood of proofs beside made-up tokens does not get the next player request refused', { timeout: 600_000 }, async () => {
  const sessions = createSessions({ secrets: [SECRET], allowedOrigins: [GAME], origin: SITE });
  const handler = createTokenHandler({
    applicationId: 42,
    origin: SITE,
    fetch: fakeItchFor(TOKEN, user),
    allowedOrigins: [GAME],
    onLogin: sessions.onLogin,
    onError: () => undefined,
  });
  const me = sessions.route({ allow: ['game'] }, (_request, session) => Response.json(session.user));

  const player = await dpopKey();
  const login = await handler(
    new Request(`${SITE}/auth/itch`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: GAME,
        'Sec-Fetch-Site': 'cross-site',
        DPoP: await dpopProof(player, 'POST', `${SITE}/auth/itch`),
      },
      body: JSON.stringify({ access_token: TOKEN }),
    }),
  );
  const { gameToken } = (await login.json()) as { gameToken: string };
  assert.ok(gameToken);

  // The attacker: no login, a key of its own, a made-up token, proofs dated as far ahead as accepted.
  const attacker = await dpopKey();
  const madeUp = 'made.up.token';
  const ahead = Math.floor(Date.now() / 1000) + DPOP_WINDOW_S - 5;
  for (let sent = 0; sent < FLOOD; sent += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, FLOOD - sent) }, async () => {
        const request = new Request(`${SITE}/api/me`, {
          headers: {
            Origin: GAME,
            Authorization: `DPoP ${madeUp}`,
            DPoP: await dpopProof(attacker, 'GET', `${SITE}/api/me`, { token: madeUp, iat: ahead }),
          },
        });
        assert.equal((await me(request)).status, 401);
      }),
    );
  }

  // The player's next request, with a fresh proof of its own key.
  const response = await me(
    new Request(`${SITE}/api/me`, {
      headers: {
        Origin: GAME,
        Authorization: `DPoP ${gameToken}`,
        DPoP: await dpopProof(player, 'GET', `${SITE}/api/me`, { token: gameToken }),
      },
    }),
  );
  assert.equal(response.status, 200, await response.clone().text());
});
