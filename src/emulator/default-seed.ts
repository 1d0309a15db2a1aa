import { OOB_REDIRECT_URI } from '../core/authorize-url.js';
import type { SeedInput } from './seed.js';

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
 * Games, purchases and keys exercise each rule of spec section 4A: purchases under two linked
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
const cover = (name: string): string => `https://img.itch.zone/emulator/${name}.png`;

/**
 * The seed an emulator starts from when no `data` is given. See
 * {@link DEFAULT_SEED_CREDENTIALS} for its users, keys and client ids.
 */
export const DEFAULT_SEED = {
  users: [
    {
      id: C.users.gamer,
      username: 'mossy',
      display_name: 'Mossy Pine',
      gamer: true,
      developer: false,
      press_user: false,
      url: 'https://mossy.itch.io',
      cover_url: cover('mossy-avatar'),
      emails: [
        { address: C.emails.gamer, verified: true },
        { address: C.emails.gamerLinked, verified: true },
        { address: C.emails.gamerUnverified, verified: false },
      ],
    },
    {
      id: C.users.developer,
      username: 'pixelforge',
      display_name: 'Pixel Forge',
      gamer: true,
      developer: true,
      press_user: false,
      url: 'https://pixelforge.itch.io',
      cover_url: cover('pixelforge-avatar'),
      emails: [{ address: C.emails.developer, verified: true }],
    },
    {
      id: C.users.press,
      username: 'inkwell',
      display_name: 'Inkwell Review',
      gamer: true,
      developer: false,
      press_user: true,
      url: 'https://inkwell.itch.io',
      cover_url: cover('inkwell-avatar'),
      emails: [{ address: C.emails.press, verified: true }],
    },
    {
      id: C.users.otherDeveloper,
      username: 'quietbyte',
      display_name: 'Quiet Byte Games',
      gamer: false,
      developer: true,
      press_user: false,
      url: 'https://quietbyte.itch.io',
      cover_url: cover('quietbyte-avatar'),
      emails: [{ address: C.emails.otherDeveloper, verified: true }],
    },
    {
      id: C.users.bundleOwner,
      username: 'bramble',
      display_name: 'Bramble Wren',
      gamer: true,
      developer: false,
      press_user: false,
      url: 'https://bramble.itch.io',
      cover_url: cover('bramble-avatar'),
      emails: [{ address: C.emails.bundleOwner, verified: true }],
    },
    {
      id: C.users.newcomer,
      username: 'fernlight',
      display_name: 'Fern Light',
      gamer: true,
      developer: false,
      press_user: false,
      url: 'https://fernlight.itch.io',
      emails: [{ address: C.emails.newcomer, verified: true }],
    },
  ],
  games: [
    {
      id: C.games.starfallKeep,
      user_id: C.users.developer,
      title: 'Starfall Keep',
      short_text: 'Hold the last tower while the sky falls, one star at a time.',
      type: 'default',
      classification: 'game',
      url: 'https://pixelforge.itch.io/starfall-keep',
      cover_url: cover('starfall-keep'),
      created_at: '2023-03-20T09:12:44Z',
      published: true,
      published_at: '2023-04-02T16:00:00Z',
      min_price: 500,
      can_be_bought: true,
      platforms: ['windows', 'linux', 'osx'],
      channels: { windows: '1.4.2', linux: '1.4.2', 'osx-universal': '1.4.1' },
      downloads_count: 1834,
      views_count: 20417,
      earnings: [
        { currency: 'USD', amount: 184250 },
        { currency: 'EUR', amount: 23100 },
      ],
    },
    {
      id: C.games.lanternLetters,
      user_id: C.users.developer,
      title: 'Lantern Letters',
      short_text: 'A word game played by lantern light, right in your browser.',
      type: 'html',
      classification: 'game',
      url: 'https://pixelforge.itch.io/lantern-letters',
      cover_url: cover('lantern-letters'),
      created_at: '2023-07-01T11:30:00Z',
      published: true,
      published_at: '2023-07-03T18:45:10Z',
      min_price: 0,
      can_be_bought: true,
      platforms: [],
      downloads_count: 0,
      views_count: 5120,
      earnings: [{ currency: 'USD', amount: 1500 }],
    },
    {
      id: C.games.tidewaterJam,
      user_id: C.users.otherDeveloper,
      editor_ids: [C.users.developer],
      title: 'Tidewater Jam',
      short_text: 'A jam game about keeping a harbour afloat.',
      type: 'default',
      classification: 'game',
      url: 'https://quietbyte.itch.io/tidewater-jam',
      cover_url: cover('tidewater-jam'),
      created_at: '2023-08-01T08:00:00Z',
      published: true,
      published_at: '2023-08-04T20:00:00Z',
      min_price: 300,
      can_be_bought: true,
      platforms: ['windows'],
      downloads_count: 212,
      views_count: 1900,
      earnings: [{ currency: 'USD', amount: 900 }],
    },
    {
      id: C.games.hollowSignal,
      user_id: C.users.otherDeveloper,
      title: 'Hollow Signal',
      short_text: 'Follow a radio signal into an abandoned research station.',
      type: 'default',
      classification: 'game',
      url: 'https://quietbyte.itch.io/hollow-signal',
      cover_url: cover('hollow-signal'),
      created_at: '2023-09-10T10:00:00Z',
      published: true,
      published_at: '2023-09-30T15:30:00Z',
      min_price: 800,
      can_be_bought: true,
      platforms: ['windows', 'linux'],
      downloads_count: 640,
      views_count: 8800,
      earnings: [{ currency: 'USD', amount: 2400 }],
    },
    {
      id: C.games.prototype,
      user_id: C.users.developer,
      title: 'Untitled Prototype',
      short_text: '',
      type: 'default',
      classification: 'game',
      url: 'https://pixelforge.itch.io/untitled-prototype',
      created_at: '2024-05-12T07:05:00Z',
      published: false,
      min_price: 0,
      can_be_bought: false,
      platforms: ['windows'],
    },
  ],
  purchases: [
    { id: 3001, game_id: C.games.starfallKeep, user_id: C.users.gamer, email: C.emails.gamer, created_at: '2023-05-01T14:22:09Z', source: 'stripe', currency: 'USD', price: 500, status: 'complete' },
    { id: 3002, game_id: C.games.tidewaterJam, email: C.emails.gamerLinked, created_at: '2023-08-14T19:03:51Z', source: 'paypal', currency: 'USD', price: 300, status: 'complete' },
    { id: 3003, game_id: C.games.starfallKeep, user_id: C.users.gamer, email: C.emails.gamer, created_at: '2023-06-10T09:00:00Z', source: 'stripe', currency: 'USD', price: 500, status: 'pending' },
    { id: 3004, game_id: C.games.lanternLetters, user_id: C.users.press, email: C.emails.press, created_at: '2023-09-02T12:00:00Z', source: 'stripe', currency: 'USD', price: 300, status: 'complete' },
    { id: 3005, game_id: C.games.hollowSignal, user_id: C.users.gamer, email: C.emails.gamer, created_at: '2023-10-05T21:40:00Z', source: 'stripe', currency: 'USD', price: 800, status: 'complete' },
    { id: 3006, game_id: C.games.starfallKeep, user_id: C.users.gamer, email: C.emails.gamer, created_at: '2023-04-15T10:10:10Z', source: 'stripe', currency: 'USD', price: 500, status: 'refunded' },
    { id: 3007, game_id: C.games.starfallKeep, email: C.emails.gamerUnverified, created_at: '2023-11-11T11:11:11Z', source: 'paypal', currency: 'EUR', price: 450, sale_rate: 10, status: 'complete' },
    { id: 3008, game_id: C.games.starfallKeep, email: C.emails.bundleBuyer, created_at: '2024-02-14T17:30:00Z', source: 'stripe', currency: 'USD', price: 600, status: 'complete', purchase_type: 'bundle', bundle_game_ids: [C.games.starfallKeep, C.games.lanternLetters] },
    { id: 3009, game_id: C.games.starfallKeep, user_id: C.users.bundleOwner, email: C.emails.bundleOwner, created_at: '2024-03-02T10:15:00Z', source: 'stripe', currency: 'USD', price: 600, status: 'complete', purchase_type: 'bundle', bundle_game_ids: [C.games.starfallKeep, C.games.lanternLetters] },
  ],
  download_keys: [
    { id: 4001, key: C.downloadKeys.gamerStarfall, game_id: C.games.starfallKeep, user_id: C.users.gamer, purchase_id: 3001, downloads: 4, created_at: '2023-05-01T14:22:10Z' },
    { id: 4002, key: C.downloadKeys.gamerTidewater, game_id: C.games.tidewaterJam, user_id: C.users.gamer, purchase_id: 3002, downloads: 1, created_at: '2023-08-14T19:03:52Z' },
    { id: 4003, key: C.downloadKeys.pressClaim, game_id: C.games.starfallKeep, user_id: C.users.press, downloads: 2, created_at: '2023-04-20T08:30:00Z' },
    { id: 4004, key: C.downloadKeys.gamerHollow, game_id: C.games.hollowSignal, user_id: C.users.gamer, purchase_id: 3005, downloads: 3, created_at: '2023-10-05T21:40:01Z' },
    { id: 4005, key: C.downloadKeys.revoked, game_id: C.games.starfallKeep, user_id: C.users.gamer, purchase_id: 3006, downloads: 0, created_at: '2023-04-15T10:10:11Z', revoked: true },
    { id: 4006, key: C.downloadKeys.otherDeveloperLantern, game_id: C.games.lanternLetters, user_id: C.users.otherDeveloper, downloads: 0, created_at: '2023-07-05T09:00:00Z' },
    { id: 4007, key: C.downloadKeys.guest, game_id: C.games.starfallKeep, purchase_id: 3007, downloads: 1, created_at: '2023-11-11T11:11:12Z' },
    { id: 4008, key: C.downloadKeys.bundleStarfall, game_id: C.games.starfallKeep, purchase_id: 3008, downloads: 0, created_at: '2024-02-14T17:30:01Z' },
    { id: 4009, key: C.downloadKeys.bundleLantern, game_id: C.games.lanternLetters, purchase_id: 3008, downloads: 0, created_at: '2024-02-14T17:30:01Z' },
    { id: 4010, key: C.downloadKeys.bundleOwnerStarfall, game_id: C.games.starfallKeep, user_id: C.users.bundleOwner, purchase_id: 3009, downloads: 1, created_at: '2024-03-02T10:15:01Z' },
    { id: 4011, key: C.downloadKeys.bundleOwnerLantern, game_id: C.games.lanternLetters, user_id: C.users.bundleOwner, purchase_id: 3009, downloads: 0, created_at: '2024-03-02T10:15:01Z' },
  ],
  collections: [
    { id: 5001, user_id: C.users.gamer, title: 'Cozy evenings', created_at: '2023-06-01T20:00:00Z', updated_at: '2023-09-03T21:15:00Z', game_ids: [C.games.starfallKeep, C.games.lanternLetters] },
    { id: 5002, user_id: C.users.gamer, title: 'Play later', created_at: '2023-10-06T07:00:00Z', game_ids: [] },
    { id: 5003, user_id: C.users.developer, title: 'Inspiration', created_at: '2023-02-01T12:00:00Z', game_ids: [C.games.hollowSignal] },
  ],
  rewards: [
    { id: 6001, game_id: C.games.starfallKeep, title: 'Digital artbook' },
    { id: 6002, game_id: C.games.starfallKeep, title: 'Your name in the credits' },
  ],
  reward_claims: [{ id: 6101, reward_id: 6001, purchase_id: 3001, created_at: '2023-05-01T14:25:00Z' }],
  oauth_applications: [
    { id: C.clients.demo.id, client_id: C.clients.demo.clientId, name: C.clients.demo.name, user_id: C.users.developer, redirect_uris: [...C.clients.demo.redirectUris] },
    { id: C.clients.other.id, client_id: C.clients.other.clientId, name: C.clients.other.name, user_id: C.users.otherDeveloper, redirect_uris: [...C.clients.other.redirectUris] },
  ],
  api_keys: [
    { id: 8001, key: C.apiKeys.developer, user_id: C.users.developer, created_at: '2023-01-10T10:00:00Z' },
    { id: 8002, key: C.apiKeys.gamer, user_id: C.users.gamer, created_at: '2023-01-11T10:00:00Z' },
    { id: 8003, key: C.apiKeys.otherDeveloper, user_id: C.users.otherDeveloper, created_at: '2023-01-12T10:00:00Z' },
    { id: 8004, key: C.apiKeys.press, user_id: C.users.press, created_at: '2023-01-13T10:00:00Z' },
    { id: 8005, key: C.apiKeys.revoked, user_id: C.users.gamer, created_at: '2022-12-01T10:00:00Z', revoked: true },
    { id: 8007, key: C.apiKeys.bundleOwner, user_id: C.users.bundleOwner, created_at: '2024-03-02T10:20:00Z' },
    { id: 8008, key: C.apiKeys.newcomer, user_id: C.users.newcomer, created_at: '2024-03-03T10:20:00Z' },
    { id: 8006, key: C.oauthToken, user_id: C.users.gamer, scopes: ['profile:me'], oauth_application_id: C.clients.demo.id, created_at: '2023-05-02T10:00:00Z' },
  ],
  jwts: [
    { token: C.jwts.valid, user_id: C.users.gamer, scopes: ['profile:me'], expires_at: '2099-12-31T23:59:59Z' },
    { token: C.jwts.expired, user_id: C.users.gamer, scopes: ['profile:me'], expires_at: '2017-10-19T13:35:06Z' },
  ],
} satisfies SeedInput;
