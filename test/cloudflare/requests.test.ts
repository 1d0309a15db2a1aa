// How many Durable Object requests each step of a login costs with itch-oauth-widget/cloudflare's
// store (in-process objects, test/cloudflare/support), the popup relay's and the sessions' own
// (a rate limit's counters aside): what anyone can send without an itch.io login reaches storage
// once at most per object it needs, and a popup login's entries stay on its state's object.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as cloudflare from '../../src/cloudflare/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import * as server from '../../src/server/index.js';
import { countLoginFlows, type Cost, type Modules } from './support/login-flows.js';

let emulator: RunningEmulator;
let costs: Map<string, Cost>;
before(async () => {
  emulator = await startEmulator();
  costs = await countLoginFlows({ ...cloudflare, ...server } as unknown as Modules, emulator);
});
after(() => emulator.close());

const of = (step: string) => {
  const cost = costs.get(step);
  assert.ok(cost !== undefined, `no step named ${step}`);
  return cost;
};

describe('Durable Object requests per step', () => {
  it('a collection for a verifier nobody bound is one request, one read of storage for its login and notice', () => {
    const { relay, rowsRead } = of('anonymous: collection of a verifier nobody bound');
    assert.equal(relay.length, 1, JSON.stringify(relay));
    assert.equal(relay[0]!.op, 'getMany');
    assert.match(relay[0]!.keys.join(' '), /popup:p\..* .*popup-notice:\d+/);
    assert.equal(rowsRead, 2);
  });

  it("a deposit of a refused token reads its state's login and notice in one request, and writes its notice twice", () => {
    assert.deepEqual(
      of('anonymous: deposit of a bogus token with its own binding cookie').relay.map(({ op }) => op),
      ['getMany', 'set', 'get', 'set'],
    );
  });

  it('a pending collection is one request', () => {
    assert.equal(of('popup login (site): collection, pending').relay.length, 1);
    assert.equal(of('popup login (game): collection, pending').relay.length, 1);
  });

  it("a code binding's 16 slots are read in one request per object, two at most", () => {
    for (const step of ['anonymous: deposit with a planted code cookie', 'anonymous: code confirmation']) {
      const reads = of(step).relay.filter(({ op }) => op === 'getMany');
      assert.ok(reads.length >= 1 && reads.length <= 2, `${step}: ${JSON.stringify(reads)}`);
      assert.equal(
        reads.reduce((sum, { keys }) => sum + keys.length, 0),
        16,
      );
    }
  });

  it("a redirect login asks nothing; an API call with a cookie asks one thing, once, and one with a game token also claims its proof's jti", () => {
    assert.equal(of('redirect login').relay.length, 0);
    assert.deepEqual(
      of('API call with the cookie').relay.map(({ op }) => op),
      ['get'],
    );
    const gameCall = of('API call with the game token').relay;
    assert.equal(gameCall.length, 2, JSON.stringify(gameCall));
    assert.ok(
      gameCall.some(({ op, keys }) => op === 'get' && keys.some((key) => key.includes('itch-session:revoked:'))),
      JSON.stringify(gameCall),
    );
    assert.ok(
      gameCall.some(({ keys }) => keys.some((key) => key.includes('itch-session:dpop:'))),
      JSON.stringify(gameCall),
    );
  });

  it("a popup login's requests reach two objects at most: its state's (login, claims, notice), and its itch.io account's (and a game's, its proof's jti)", () => {
    for (const login of ['popup login (site)', 'popup login (game)']) {
      const all = [...costs].filter(([step]) => step.startsWith(login)).flatMap(([, cost]) => cost.relay);
      // A game's collection proves its key (DPoP): the proof's jti is claimed once, on the object of its hash.
      const proofs = all.filter(({ keys }) => keys.some((key) => key.includes('itch-session:dpop:')));
      assert.equal(proofs.length, login.endsWith('(game)') ? 1 : 0, JSON.stringify(proofs));
      const requests = all.filter((request) => !proofs.includes(request));
      assert.ok(new Set(requests.map(({ name }) => name)).size <= 2, JSON.stringify(requests));
      const ofState = requests.filter(({ keys }) => keys.some((key) => /popup(-claim|-notice)?:(p\.|\d)/.test(key)));
      assert.ok(ofState.length >= 5);
      assert.equal(new Set(ofState.map(({ name }) => name)).size, 1, JSON.stringify(ofState));
    }
  });
});
