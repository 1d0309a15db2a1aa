// A game server that trusts "this is itch.io player 1001, who owns game 2001" without calling the
// site back and without itch-oauth-widget: only `jose`, and the site's public keys at
// /.well-known/jwks.json. The framed game sends the game token its login answered as
// `Authorization: Bearer`; this server checks the signature, who made the token (`iss`), for whom
// (`aud`, the site's origin) and that it has not expired, then answers the player and `owns`.
// A WebSocket server, Nakama's custom authentication or a leaderboard service would verify the
// same way, once per connection.
import { createServer } from 'node:http';
import { createRemoteJWKSet, jwtVerify } from 'jose';

// The site that logs players in (its createSessions): its origin is the tokens' `iss` and `aud`.
const SITE_ORIGIN = new URL(process.env.SITE_ORIGIN ?? 'http://127.0.0.1:3000').origin;
// The game's origin, whose pages may call this server from the browser (CORS); none by default.
const GAME_ORIGIN = process.env.GAME_ORIGIN ? new URL(process.env.GAME_ORIGIN).origin : undefined;
const PORT = Number(process.env.PORT ?? 4000);

// Fetched once, cached, and fetched again when a token names a key it does not know (the site
// rotated its secret), at most every 30 s (jose's cooldown), so a flood of forged key ids costs
// one request to the site at most.
const keys = createRemoteJWKSet(new URL('/.well-known/jwks.json', SITE_ORIGIN));

/** The player of a game token, or `undefined` for anything else (forged, expired, another site's, a cookie value). */
async function playerOf(request) {
  const match = /^Bearer +(\S+)$/.exec(request.headers.authorization ?? '');
  if (!match) return undefined;
  try {
    const { payload } = await jwtVerify(match[1], keys, {
      algorithms: ['EdDSA'], // the only algorithm game tokens use: no `none`, no HMAC with the public key
      typ: 'JWT',
      issuer: SITE_ORIGIN,
      audience: SITE_ORIGIN,
      requiredClaims: ['sub', 'exp'],
    });
    return { id: Number(payload.sub), username: payload.user?.username, owns: payload.owns ?? {} };
  } catch {
    return undefined;
  }
}

const server = createServer(async (request, response) => {
  const cors =
    GAME_ORIGIN && request.headers.origin === GAME_ORIGIN
      ? { 'Access-Control-Allow-Origin': GAME_ORIGIN, Vary: 'Origin' }
      : { Vary: 'Origin' };
  if (request.method === 'OPTIONS') {
    response
      .writeHead(cors['Access-Control-Allow-Origin'] ? 204 : 403, {
        ...cors,
        'Access-Control-Allow-Headers': 'Authorization',
        'Access-Control-Allow-Methods': 'GET',
      })
      .end();
    return;
  }
  if (request.url !== '/player' || request.method !== 'GET') {
    response.writeHead(404, cors).end();
    return;
  }
  const player = await playerOf(request);
  const status = player ? 200 : 401;
  const headers = {
    ...cors,
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    ...(player ? {} : { 'WWW-Authenticate': 'Bearer' }),
  };
  response.writeHead(status, headers).end(JSON.stringify(player ?? { errors: ['a valid game token of this site is required'] }));
});

server.listen(PORT, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}, trusting the game tokens of ${SITE_ORIGIN}`);
});
