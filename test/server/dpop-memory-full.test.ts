// Without a store the proofs are remembered in memory (50,000); 26 itch.io accounts logged in at
// once fill it, and then every player's proofs are refused until the oldest expire (a residual the
// sessions guide states). What the attacker must not get on top of that: honest players answered
// 401 "the DPoP proof was used before", which a game reads as a lost session (gameSession() renews
// on a 401, the renewal is refused too, and the player is signed out), and a login that reads as a
// replay. A full memory is the server's state, not the player's fault: 429 or 503 with Retry-After.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createSessions, createTokenHandler, type FetchFunction } from '../../src/server/index.js';
import { DPOP_WINDOW_S } from '../../src/server/sessions/dpop.js';
import { dpopKey, dpopProof, gameLoginRequest, type DpopKey } from '../support/dpop.js';

const SITE = 'https://game.example';
const GAME = 'https://html-classic.itch.zone';
const SECRET = 'correct horse battery staple, 32+ characters long';
/** Accounts that flood: the guide's 26, and more for margin. */
const ACCOUNTS = 30;

/** itch.io that knows one token per account: `token-<id>` is account `id`'s. */
const itch: FetchFunction = async (url, init) => {
  const id = /^Bearer token-(\d+)$/.exec(new Headers(init.headers).get('authorization') ?? '')?.[1];
  if (id === undefined) return Response.json({ errors: ['invalid key'] }, { status: 401 });
  if (url.endsWith('/credentials/info')) return Response.json({ type: 'key', scopes: ['profile:me'], oauth_application_id: 42 });
  if (url.endsWith('/profile'))
    return Response.json({
      user: { id: Number(id), username: `u${id}`, url: `https://u${id}.itch.io`, gamer: true, developer: false, press_user: false },
    });
  return Response.json({ errors: ['invalid api endpoint'] }, { status: 404 });
};

it(
  'a proof memory full of other players refuses an honest player with Retry-After, never as a replay (401)',
  { timeout: 600_000 },
  async () => {
    const sessions = createSessions({ secrets: [SECRET], allowedOrigins: [GAME], origin: SITE });
    const handler = createTokenHandler({
      applicationId: 42,
      origin: SITE,
      fetch: itch,
      allowedOrigins: [GAME],
      onLogin: sessions.onLogin,
      onError: () => undefined,
      rateLimit: false,
    });
    const me = sessions.route({ allow: ['game'] }, (_request, session) => Response.json(session.user));
    const logIn = async (id: number, key: DpopKey) => handler(await gameLoginRequest(`${SITE}/auth/itch`, GAME, key, `token-${id}`));
    const call = async (key: DpopKey, gameToken: string, iat: number) =>
      me(
        new Request(`${SITE}/api/me`, {
          headers: {
            Origin: GAME,
            Authorization: `DPoP ${gameToken}`,
            DPoP: await dpopProof(key, 'GET', `${SITE}/api/me`, { token: gameToken, iat }),
          },
        }),
      );
    // The honest player logs in before the flood.
    const honestKey = await dpopKey();
    const { gameToken: honestToken } = (await (await logIn(1, honestKey)).json()) as { gameToken: string };
    assert.ok(honestToken);
    // Each flooding account sends proofs dated ahead until it is refused.
    for (let id = 100; id < 100 + ACCOUNTS; id++) {
      const key = await dpopKey();
      const { gameToken } = (await (await logIn(id, key)).json()) as { gameToken?: string };
      if (gameToken === undefined) break; // the memory is full: logins are refused too
      const ahead = Math.floor(Date.now() / 1000) + DPOP_WINDOW_S - 5;
      for (let refused = false; !refused;) {
        const answers = await Promise.all(Array.from({ length: 250 }, () => call(key, gameToken, ahead)));
        refused = answers.some((answer) => answer.status !== 200);
      }
    }
    const answer = await call(honestKey, honestToken, Math.floor(Date.now() / 1000));
    // Measured before any fix: 401 with WWW-Authenticate "the DPoP proof was used before".
    assert.notEqual(answer.status, 401, `an honest player's new proof: 401 ${answer.headers.get('WWW-Authenticate')}`);
    assert.ok([429, 503].includes(answer.status));
    assert.ok(Number(answer.headers.get('Retry-After')) > 0);
    const login = await logIn(2, await dpopKey());
    assert.notEqual(login.status, 401, `an honest player's new login: 401 ${await login.text()}`);
  },
);
