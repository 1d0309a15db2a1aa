import { randomBytes } from 'node:crypto';
import type {
  ApiKeyRecord,
  CollectionRecord,
  DownloadKeyRecord,
  GameRecord,
  JwtRecord,
  OAuthApplicationRecord,
  PurchaseRecord,
  RewardClaimRecord,
  RewardRecord,
  Seed,
  UserRecord,
} from './seed.js';
import { EmulatorError } from './emulator-error.js';
import { redirectUriSchema } from './seed.js';
import { purchasedGames } from './seed-relations.js';

/** How long the consent page's form stays valid. */
export const AUTHORIZATION_REQUEST_LIFETIME_MS = 10 * 60 * 1000;

/** An authorization request that passed validation and awaits the user's decision. */
export interface PendingAuthorization {
  application: OAuthApplicationRecord;
  redirectUri: string;
  scopes: string[];
  state: string | undefined;
  /** The query string of the original `GET /user/oauth`, for the "try again" link. */
  query: string;
  /** The page the player came from (the GET's `Referer`, on the redirect URI's origin), as its referrer policy sent it. */
  from?: string | undefined;
  createdAt: Date;
}

/** A reward claim with its reward, as listed by claimed-rewards. */
export interface ClaimedReward {
  claim: RewardClaimRecord;
  reward: RewardRecord;
}

const normaliseEmail = (address: string): string => address.trim().toLowerCase();

/**
 * The emulator's in-memory state: the seed's records plus what happens while it runs (issued
 * tokens, pending consent forms, redirect URIs registered at run time). Lookups answer the
 * questions itch.io's rules for keys and purchases ask, so the route handlers stay declarative.
 */
export class EmulatorStore {
  readonly users: readonly UserRecord[];
  readonly games: readonly GameRecord[];
  readonly purchases: readonly PurchaseRecord[];
  readonly downloadKeys: readonly DownloadKeyRecord[];
  readonly collections: readonly CollectionRecord[];
  readonly rewards: readonly RewardRecord[];
  readonly rewardClaims: readonly RewardClaimRecord[];
  readonly applications: readonly OAuthApplicationRecord[];
  readonly apiKeys: ApiKeyRecord[];
  readonly jwts: JwtRecord[];
  readonly now: () => Date;
  readonly #pending = new Map<string, PendingAuthorization>();

  constructor(seed: Seed, now: () => Date = () => new Date()) {
    const copy = structuredClone(seed);
    this.users = copy.users;
    this.games = copy.games;
    this.purchases = copy.purchases;
    this.downloadKeys = copy.download_keys;
    this.collections = copy.collections;
    this.rewards = copy.rewards;
    this.rewardClaims = copy.reward_claims;
    this.applications = copy.oauth_applications;
    this.apiKeys = copy.api_keys;
    this.jwts = copy.jwts;
    this.now = now;
  }

  user(id: number): UserRecord | undefined {
    return this.users.find((user) => user.id === id);
  }

  game(id: number): GameRecord | undefined {
    return this.games.find((game) => game.id === id);
  }

  purchase(id: number): PurchaseRecord | undefined {
    return this.purchases.find((purchase) => purchase.id === id);
  }

  application(id: number): OAuthApplicationRecord | undefined {
    return this.applications.find((app) => app.id === id);
  }

  applicationByClientId(clientId: string): OAuthApplicationRecord | undefined {
    return this.applications.find((app) => app.client_id === clientId);
  }

  /** A live (not revoked) API key, including OAuth access tokens. */
  activeApiKey(key: string): ApiKeyRecord | undefined {
    return this.apiKeys.find((record) => record.key === key && !record.revoked);
  }

  /** A JWT by its exact value, expired or not. */
  jwt(token: string): JwtRecord | undefined {
    return this.jwts.find((record) => record.token === token);
  }

  /**
   * The game at `https://<user>.itch.io/<slug>`, named `user/slug` as butler and wharf/latest
   * name it (case-insensitive).
   */
  gameByTarget(target: string): GameRecord | undefined {
    const wanted = target.toLowerCase();
    return this.games.find((game) => {
      const match = /^https?:\/\/([^./]+)\.itch\.io\/([^/?#]+)\/?$/i.exec(game.url);
      return match !== null && `${match[1]}/${match[2]}`.toLowerCase() === wanted;
    });
  }

  /** Whether the user uploaded the game or has edit access to it. */
  canEdit(userId: number, game: GameRecord): boolean {
    return game.user_id === userId || game.editor_ids.includes(userId);
  }

  /** Games uploaded by the user or that the user has edit access to (my-games). */
  gamesEditableBy(userId: number): GameRecord[] {
    return this.games.filter((game) => this.canEdit(userId, game));
  }

  /** The user's verified e-mail addresses, lower-cased. */
  verifiedEmails(userId: number): Set<string> {
    const user = this.user(userId);
    return new Set((user?.emails ?? []).filter((email) => email.verified).map((email) => normaliseEmail(email.address)));
  }

  /**
   * The addresses linked to `email`: when it is a verified address of a user, all of that user's
   * verified addresses; otherwise the address alone. Lower-cased.
   * @see https://itch.io/docs/api/serverside
   */
  linkedEmails(email: string): Set<string> {
    const address = normaliseEmail(email);
    const owner = this.users.find((user) => this.verifiedEmails(user.id).has(address));
    return owner === undefined ? new Set([address]) : this.verifiedEmails(owner.id);
  }

  /**
   * Completed purchases of a game made by the user (logged in, or under one of their verified
   * addresses) or under an address linked to `email`. Either criterion may be omitted.
   * @see https://itch.io/docs/api/serverside
   */
  completedPurchases(gameId: number, who: { userId?: number | undefined; email?: string | undefined }): PurchaseRecord[] {
    const byUserEmails = who.userId === undefined ? new Set<string>() : this.verifiedEmails(who.userId);
    const linked = who.email === undefined ? new Set<string>() : this.linkedEmails(who.email);
    return this.purchases.filter((purchase) => {
      if (!purchasedGames(purchase).includes(gameId) || purchase.status !== 'complete') return false;
      const address = normaliseEmail(purchase.email);
      const byUser = who.userId !== undefined && (purchase.user_id === who.userId || byUserEmails.has(address));
      return byUser || linked.has(address);
    });
  }

  /** Completed purchases of a game, for its counters. */
  completedPurchaseCount(gameId: number): number {
    return this.purchases.filter((purchase) => purchasedGames(purchase).includes(gameId) && purchase.status === 'complete').length;
  }

  /** The download key a purchase produced, if any. */
  keyOfPurchase(purchaseId: number): DownloadKeyRecord | undefined {
    return this.downloadKeys.find((key) => key.purchase_id === purchaseId);
  }

  /**
   * A purchase is a donation when no download key is associated with it.
   * @see https://itch.io/docs/api/serverside
   */
  isDonation(purchase: PurchaseRecord): boolean {
    return this.keyOfPurchase(purchase.id) === undefined;
  }

  /** The download key with this value, whatever its game or state. */
  downloadKeyByValue(value: string): DownloadKeyRecord | undefined {
    return this.downloadKeys.find((key) => key.key === value);
  }

  /**
   * Live keys of a game, from purchases and claims, owned by the user or bought or owned under
   * an address linked to `email`.
   * @see https://itch.io/docs/api/serverside
   */
  activeKeysFor(gameId: number, who: { userId?: number | undefined; email?: string | undefined }): DownloadKeyRecord[] {
    const linked = who.email === undefined ? new Set<string>() : this.linkedEmails(who.email);
    return this.downloadKeys.filter((key) => {
      if (key.game_id !== gameId || key.revoked) return false;
      if (who.userId !== undefined && key.user_id === who.userId) return true;
      if (linked.size === 0) return false;
      const ownerEmails = key.user_id === undefined ? new Set<string>() : this.verifiedEmails(key.user_id);
      const purchase = key.purchase_id === undefined ? undefined : this.purchase(key.purchase_id);
      return (
        [...ownerEmails].some((address) => linked.has(address)) || (purchase !== undefined && linked.has(normaliseEmail(purchase.email)))
      );
    });
  }

  /** The user's live keys, newest first (profile/owned-keys). */
  ownedKeys(userId: number): DownloadKeyRecord[] {
    return this.downloadKeys
      .filter((key) => key.user_id === userId && !key.revoked)
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || b.id - a.id);
  }

  collectionsOf(userId: number): CollectionRecord[] {
    return this.collections.filter((collection) => collection.user_id === userId);
  }

  /** Claims of the rewards of a game, oldest first. */
  claimedRewards(gameId: number): ClaimedReward[] {
    return this.rewardClaims
      .flatMap((claim) => {
        const reward = this.rewards.find((candidate) => candidate.id === claim.reward_id);
        return reward !== undefined && reward.game_id === gameId ? [{ claim, reward }] : [];
      })
      .sort((a, b) => a.claim.created_at.getTime() - b.claim.created_at.getTime());
  }

  /**
   * Issues an access token as the consent page does on approval: a new random API key carrying
   * the granted scopes, bound to the user and the OAuth application.
   * @see https://itch.io/docs/api/oauth
   */
  issueAccessToken(userId: number, application: OAuthApplicationRecord, scopes: readonly string[]): ApiKeyRecord {
    if (this.user(userId) === undefined) throw new EmulatorError('unknown_record', `no user with id ${userId}`);
    if (scopes.length === 0) throw new EmulatorError('invalid_option', 'an access token needs at least one scope');
    const record: ApiKeyRecord = {
      id: Math.max(0, ...this.apiKeys.map((key) => key.id)) + 1,
      key: randomBytes(20).toString('hex'),
      user_id: userId,
      scopes: [...scopes],
      oauth_application_id: application.id,
      created_at: this.now(),
      revoked: false,
    };
    this.apiKeys.push(record);
    return record;
  }

  /** Adds a JWT, as the itch app does for a game whose manifest requests API scopes. */
  issueJwt(userId: number, scopes: readonly string[], expiresAt: Date): JwtRecord {
    if (this.user(userId) === undefined) throw new EmulatorError('unknown_record', `no user with id ${userId}`);
    if (scopes.length === 0) throw new EmulatorError('invalid_option', 'a JWT needs at least one scope');
    const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = [
      part({ alg: 'HS256', typ: 'JWT' }),
      part({ sub: userId, scopes, exp: Math.floor(expiresAt.getTime() / 1000), jti: randomBytes(8).toString('hex') }),
      randomBytes(32).toString('base64url'),
    ].join('.');
    const record: JwtRecord = { token, user_id: userId, scopes: [...scopes], expires_at: expiresAt };
    this.jwts.push(record);
    return record;
  }

  /** Revokes an API key or access token; later requests with it get 401. */
  revokeApiKey(key: string): boolean {
    const record = this.activeApiKey(key);
    if (record !== undefined) record.revoked = true;
    return record !== undefined;
  }

  /**
   * Registers one more redirect URI for an application, e.g. a test's random-port callback.
   * @throws Error for an unknown client id or a URI that is not a valid redirect URI.
   */
  addRedirectUri(clientId: string, redirectUri: string): void {
    const application = this.applicationByClientId(clientId);
    if (application === undefined)
      throw new EmulatorError('unknown_record', `no OAuth application with client id ${JSON.stringify(clientId)}`);
    const checked = redirectUriSchema.safeParse(redirectUri);
    if (!checked.success)
      throw new EmulatorError('invalid_option', `invalid redirect URI ${JSON.stringify(redirectUri)}: ${checked.error.issues[0]?.message}`);
    if (!application.redirect_uris.includes(redirectUri)) application.redirect_uris.push(redirectUri);
  }

  /** Remembers a validated authorization request; returns the single-use id the consent form posts back. */
  savePendingAuthorization(request: Omit<PendingAuthorization, 'createdAt'>): string {
    const now = this.now();
    for (const [id, pending] of this.#pending) {
      if (now.getTime() - pending.createdAt.getTime() >= AUTHORIZATION_REQUEST_LIFETIME_MS) this.#pending.delete(id);
    }
    const id = randomBytes(32).toString('base64url');
    this.#pending.set(id, { ...request, createdAt: now });
    return id;
  }

  /** Takes (and forgets) a pending authorization request; undefined when unknown, used or expired. */
  takePendingAuthorization(id: string): PendingAuthorization | undefined {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    if (pending === undefined) return undefined;
    return this.now().getTime() - pending.createdAt.getTime() < AUTHORIZATION_REQUEST_LIFETIME_MS ? pending : undefined;
  }
}
