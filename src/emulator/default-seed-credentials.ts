/*
 * The names and values a test or a demo refers to in the default seed (`default-seed.ts`): its
 * users, e-mail addresses, credentials, client ids, games, and who owns which game.
 */
import { OOB_REDIRECT_URI } from '../core/authorize-url.js';

/**
 * The well-known values of the default seed, for tests and demos. All are fake and only mean
 * something to the emulator.
 *
 * Users (`users`):
 *
 * | name | id | role | verified e-mail addresses |
 * |---|---|---|---|
 * | `developer` | 1001 `pixelforge` | developer of Starfall Keep, Lantern Letters, a draft; editor of Tidewater Jam | dev@pixelforge.example |
 * | `gamer` | 1002 `mossy` | buyer | mossy@example.com, mossy.pine@example.org (linked); mossy-old@example.net is unverified |
 * | `press` | 1003 `inkwell` | press user; claimed a press copy of Starfall Keep, donated to Lantern Letters | press@inkwell.example |
 * | `otherDeveloper` | 1004 `quietbyte` | developer of Tidewater Jam and Hollow Signal; claimed a key of Lantern Letters | hello@quietbyte.example |
 * | `bundleOwner` | 1005 `bramble` | bought the Pixel Forge bundle (Starfall Keep + Lantern Letters) while logged in | bramble@example.com |
 * | `newcomer` | 1006 `fernlight` | owns nothing | fern@example.net |
 *
 * Who owns Pixel Forge's games (a live download key of theirs: what `/games/ID/ownership` and
 * `download_keys?user_id=` both answer; see {@link DEFAULT_SEED_OWNERS}):
 *
 * | game | owned by | not owned by |
 * |---|---|---|
 * | Starfall Keep (2001) | `gamer` (purchase), `press` (claimed key), `bundleOwner` (bundle) | `developer` (its creator holds no key), `otherDeveloper`, `newcomer` |
 * | Lantern Letters (2002) | `otherDeveloper` (claimed key), `bundleOwner` (bundle) | `press` (a donation gives no key), `gamer`, `developer`, `newcomer` |
 *
 * Credentials:
 *
 * | value | what |
 * |---|---|
 * | `apiKeys.developer` … `apiKeys.newcomer` | unscoped API keys of each user (all endpoints) |
 * | `apiKeys.revoked` | a revoked key of the gamer: always 401 |
 * | `oauthToken` | the gamer's OAuth access token for the demo application, scope `profile:me` |
 * | `jwts.valid` | the gamer's JWT, scope `profile:me`, expires 2099-12-31 23:59:59 |
 * | `jwts.expired` | the gamer's JWT, scope `profile:me`, expired 2017-10-19 13:35:06 |
 *
 * OAuth applications (`clients`):
 *
 * | client id | owner | redirect URIs |
 * |---|---|---|
 * | `emu-starfall-companion` (`demo`) | developer | `http://127.0.0.1:5173/callback.html`, `http://localhost:5173/callback.html`, `urn:ietf:wg:oauth:2.0:oob` |
 * | `emu-hollow-launcher` (`other`) | otherDeveloper | `https://hollow-signal.example/oauth/callback?source=itch`, `http://127.0.0.1:47615/itch-callback` |
 *
 * Games, purchases and keys exercise each rule of download keys and purchases: purchases under two linked
 * addresses and one unverified address, a pending and a refunded purchase (never returned), a
 * revoked key, a claimed key (no purchase), a key bought without an account (no owner), and a
 * donation to the web game (a purchase without a key), a bundle bought without an account
 * (one purchase, a key for each of its two games), and the same bundle bought by a logged-in user.
 */
export const DEFAULT_SEED_CREDENTIALS = {
  users: { developer: 1001, gamer: 1002, press: 1003, otherDeveloper: 1004, bundleOwner: 1005, newcomer: 1006 },
  emails: {
    developer: 'dev@pixelforge.example',
    gamer: 'mossy@example.com',
    gamerLinked: 'mossy.pine@example.org',
    gamerUnverified: 'mossy-old@example.net',
    press: 'press@inkwell.example',
    otherDeveloper: 'hello@quietbyte.example',
    /** Bought the PixelForge bundle (Starfall Keep + Lantern Letters) without an account. */
    bundleBuyer: 'bundle.buyer@example.com',
    bundleOwner: 'bramble@example.com',
    newcomer: 'fern@example.net',
  },
  apiKeys: {
    developer: 'emulatorKeyPixelforgeDeveloper0000000001',
    gamer: 'emulatorKeyMossyGamer0000000000000000002',
    otherDeveloper: 'emulatorKeyQuietbyteDeveloper00000000003',
    press: 'emulatorKeyInkwellPress00000000000000004',
    revoked: 'emulatorKeyMossyRevoked00000000000000005',
    bundleOwner: 'emulatorKeyBrambleBundle0000000000000007',
    newcomer: 'emulatorKeyFernlightNewcomer000000000008',
  },
  oauthToken: 'emulatorOAuthTokenMossyProfileMe00000006',
  jwts: {
    valid:
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOjEwMDIsInNjb3BlcyI6WyJwcm9maWxlOm1lIl0sImV4cCI6NDEwMjQ0NDc5OX0.ZW11bGF0b3IsIG5vdCBzaWduZWQ',
    expired:
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOjEwMDIsInNjb3BlcyI6WyJwcm9maWxlOm1lIl0sImV4cCI6MTUwODQyMDEwNn0.ZW11bGF0b3IsIG5vdCBzaWduZWQ',
  },
  clients: {
    demo: {
      id: 7001,
      clientId: 'emu-starfall-companion',
      name: 'Starfall Keep Companion',
      redirectUri: 'http://127.0.0.1:5173/callback.html',
      redirectUris: ['http://127.0.0.1:5173/callback.html', 'http://localhost:5173/callback.html', OOB_REDIRECT_URI],
    },
    other: {
      id: 7002,
      clientId: 'emu-hollow-launcher',
      name: 'Hollow Signal Launcher',
      redirectUri: 'https://hollow-signal.example/oauth/callback?source=itch',
      redirectUris: ['https://hollow-signal.example/oauth/callback?source=itch', 'http://127.0.0.1:47615/itch-callback'],
    },
  },
  games: {
    /** Developer's downloadable game, bought by the gamer, press copy claimed by the press user. */
    starfallKeep: 2001,
    /** Developer's web game (`type: "html"`): the press user's donation has no key. */
    lanternLetters: 2002,
    /** Other developer's game, the developer has edit access. */
    tidewaterJam: 2003,
    /** Other developer's game, the developer has no access. */
    hollowSignal: 2004,
    /** Developer's unpublished draft. */
    prototype: 2005,
  },
  downloadKeys: {
    /** Gamer's key for Starfall Keep, from completed purchase 3001. */
    gamerStarfall: 'dlkeyStarfallKeepMossy000000000000004001',
    /** Gamer's key for Tidewater Jam, bought under the linked address. */
    gamerTidewater: 'dlkeyTidewaterJamMossy000000000000004002',
    /** Press user's claimed key for Starfall Keep: no purchase. */
    pressClaim: 'dlkeyStarfallKeepInkwellClaim00000004003',
    /** Gamer's key for Hollow Signal. */
    gamerHollow: 'dlkeyHollowSignalMossy000000000000004004',
    /** Revoked key for Starfall Keep (its purchase was refunded). */
    revoked: 'dlkeyStarfallKeepMossyRevoked00000004005',
    /** Other developer's claimed key for Lantern Letters. */
    otherDeveloperLantern: 'dlkeyLanternLettersQuietClaim00000004006',
    /** Key for Starfall Keep bought without an account, under the gamer's unverified address. */
    guest: 'dlkeyStarfallKeepGuestPurchase0000004007',
    /** Starfall Keep and Lantern Letters keys from bundle purchase 3008. */
    bundleStarfall: 'dlkeyStarfallKeepBundle000000000000004008',
    bundleLantern: 'dlkeyLanternLettersBundle0000000000004009',
    /** The bundle owner's Starfall Keep and Lantern Letters keys, from bundle purchase 3009. */
    bundleOwnerStarfall: 'dlkeyStarfallKeepBramble00000000000004010',
    bundleOwnerLantern: 'dlkeyLanternLettersBramble0000000000004011',
  },
} as const;

const C = DEFAULT_SEED_CREDENTIALS;

/**
 * Who owns each of Pixel Forge's games in the default seed, and how: the users with a live
 * download key of the game. `/games/ID/ownership` (a token's `game:view:ownership`) and
 * `download_keys?user_id=` (the developer's API key) agree on it; every other user owns neither.
 */
export const DEFAULT_SEED_OWNERS = {
  [C.games.starfallKeep]: { [C.users.gamer]: 'purchase', [C.users.press]: 'claimed key', [C.users.bundleOwner]: 'bundle' },
  [C.games.lanternLetters]: { [C.users.otherDeveloper]: 'claimed key', [C.users.bundleOwner]: 'bundle' },
} as const satisfies Record<number, Record<number, 'purchase' | 'claimed key' | 'bundle'>>;
