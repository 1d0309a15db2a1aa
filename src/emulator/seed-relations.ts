/*
 * The rules of a seed that span its entries: unique ids and values, and references from one
 * entry to another (a purchase's game, a key's purchase, …).
 */
import type { z } from 'zod';
import type { PurchaseRecord, SeedObject } from './seed-entries.js';

/** The games a purchase bought: its bundle's, or its one game. */
export function purchasedGames(purchase: Pick<PurchaseRecord, 'game_id' | 'bundle_game_ids'>): number[] {
  return purchase.bundle_game_ids ?? [purchase.game_id];
}

/** Reports one broken rule at `path` of the seed. */
type Report = (path: (string | number)[], message: string) => void;

/** Cross-entry rules zod cannot express per field: unique ids and values, and references. */
export function checkRelations(seed: SeedObject, ctx: z.RefinementCtx): void {
  const issue: Report = (path, message) => ctx.addIssue({ code: 'custom', path, message });
  checkUnique(seed, issue);
  checkEmails(seed, issue);
  checkReferences(seed, issue);
}

/** Ids, usernames, keys and client ids appear once. */
function checkUnique(seed: SeedObject, issue: Report): void {
  const unique = <T>(list: readonly T[], key: (item: T) => unknown, name: string, field: string): void => {
    const seen = new Set<unknown>();
    list.forEach((item, index) => {
      const value = key(item);
      if (seen.has(value)) issue([name, index, field], `duplicate ${field} ${JSON.stringify(value)}`);
      seen.add(value);
    });
  };
  for (const name of [
    'users',
    'games',
    'purchases',
    'download_keys',
    'collections',
    'rewards',
    'reward_claims',
    'oauth_applications',
    'api_keys',
  ] as const) {
    unique<{ id: number }>(seed[name], (item) => item.id, name, 'id');
  }
  unique(seed.users, (user) => user.username.toLowerCase(), 'users', 'username');
  unique(seed.download_keys, (key) => key.key, 'download_keys', 'key');
  unique(seed.oauth_applications, (app) => app.client_id, 'oauth_applications', 'client_id');
  unique(seed.api_keys, (key) => key.key, 'api_keys', 'key');
  unique(seed.jwts, (jwt) => jwt.token, 'jwts', 'token');
}

/** A verified address belongs to one user. */
function checkEmails(seed: SeedObject, issue: Report): void {
  const verifiedBy = new Map<string, number>();
  seed.users.forEach((user, u) => {
    user.emails.forEach((email, e) => {
      const address = email.address.toLowerCase();
      const owner = verifiedBy.get(address);
      if (email.verified && owner !== undefined) {
        issue(['users', u, 'emails', e, 'address'], `${email.address} is already a verified address of user ${owner}`);
      }
      if (email.verified) verifiedBy.set(address, user.id);
    });
  });
}

/** Every id that one entry gives of another names one that exists, and agrees with it. */
function checkReferences(seed: SeedObject, issue: Report): void {
  const ids = <T extends { id: number }>(list: readonly T[]): Map<number, T> => new Map(list.map((item) => [item.id, item]));
  const known = {
    users: ids(seed.users),
    games: ids(seed.games),
    purchases: ids(seed.purchases),
    rewards: ids(seed.rewards),
    applications: ids(seed.oauth_applications),
  };
  const refer = (map: Map<number, unknown>, value: number | undefined, path: (string | number)[], what: string): void => {
    if (value !== undefined && !map.has(value)) issue(path, `no ${what} with id ${value}`);
  };
  const { users, games, rewards, purchases, applications } = known;

  seed.games.forEach((game, i) => {
    refer(users, game.user_id, ['games', i, 'user_id'], 'user');
    game.editor_ids.forEach((editor, e) => refer(users, editor, ['games', i, 'editor_ids', e], 'user'));
    if (game.published && game.published_at === undefined) {
      issue(['games', i, 'published_at'], 'a published game needs published_at');
    }
  });
  checkPurchases(seed, issue, refer, known);
  seed.collections.forEach((collection, i) => {
    refer(users, collection.user_id, ['collections', i, 'user_id'], 'user');
    collection.game_ids.forEach((game, g) => refer(games, game, ['collections', i, 'game_ids', g], 'game'));
  });
  seed.rewards.forEach((reward, i) => refer(games, reward.game_id, ['rewards', i, 'game_id'], 'game'));
  seed.reward_claims.forEach((claim, i) => {
    const reward = rewards.get(claim.reward_id);
    const purchase = purchases.get(claim.purchase_id);
    refer(rewards, claim.reward_id, ['reward_claims', i, 'reward_id'], 'reward');
    refer(purchases, claim.purchase_id, ['reward_claims', i, 'purchase_id'], 'purchase');
    if (reward !== undefined && purchase !== undefined && reward.game_id !== purchase.game_id) {
      issue(
        ['reward_claims', i, 'purchase_id'],
        `purchase ${purchase.id} is for game ${purchase.game_id}, the reward for game ${reward.game_id}`,
      );
    }
  });
  seed.oauth_applications.forEach((app, i) => refer(users, app.user_id, ['oauth_applications', i, 'user_id'], 'user'));
  seed.api_keys.forEach((key, i) => {
    refer(users, key.user_id, ['api_keys', i, 'user_id'], 'user');
    refer(applications, key.oauth_application_id, ['api_keys', i, 'oauth_application_id'], 'OAuth application');
    if (key.oauth_application_id !== undefined && key.scopes === undefined) {
      issue(['api_keys', i, 'scopes'], 'a key issued to an OAuth application carries the scopes it was granted');
    }
  });
  seed.jwts.forEach((jwt, i) => refer(users, jwt.user_id, ['jwts', i, 'user_id'], 'user'));
}

/** Purchases and download keys: their games, buyers, bundles, and one key per purchase and game. */
function checkPurchases(
  seed: SeedObject,
  issue: Report,
  refer: (map: Map<number, unknown>, value: number | undefined, path: (string | number)[], what: string) => void,
  { users, games, purchases }: { users: Map<number, unknown>; games: Map<number, unknown>; purchases: Map<number, PurchaseRecord> },
): void {
  seed.purchases.forEach((purchase, i) => {
    refer(games, purchase.game_id, ['purchases', i, 'game_id'], 'game');
    refer(users, purchase.user_id, ['purchases', i, 'user_id'], 'user');
    purchase.bundle_game_ids?.forEach((game, g) => refer(games, game, ['purchases', i, 'bundle_game_ids', g], 'game'));
    if ((purchase.purchase_type === 'bundle') !== (purchase.bundle_game_ids !== undefined)) {
      issue(['purchases', i, 'bundle_game_ids'], 'a bundle purchase, and only a bundle purchase, lists its bundle_game_ids');
    } else if (purchase.bundle_game_ids !== undefined && !purchase.bundle_game_ids.includes(purchase.game_id)) {
      issue(['purchases', i, 'game_id'], `game ${purchase.game_id} is not in the purchase's bundle_game_ids`);
    }
  });
  const keyForPurchase = new Map<string, number>();
  seed.download_keys.forEach((key, i) => {
    refer(games, key.game_id, ['download_keys', i, 'game_id'], 'game');
    refer(users, key.user_id, ['download_keys', i, 'user_id'], 'user');
    if (key.purchase_id === undefined) {
      if (key.user_id === undefined) issue(['download_keys', i, 'user_id'], 'a claimed key (no purchase_id) needs its user_id');
      return;
    }
    const purchase = purchases.get(key.purchase_id);
    if (purchase === undefined) {
      issue(['download_keys', i, 'purchase_id'], `no purchase with id ${key.purchase_id}`);
    } else if (!purchasedGames(purchase).includes(key.game_id)) {
      issue(['download_keys', i, 'purchase_id'], `purchase ${purchase.id} is for game ${purchase.game_id}, not ${key.game_id}`);
    }
    // One key per purchase and game: a bundle purchase has one for each of its games.
    const slot = `${key.purchase_id}/${key.game_id}`;
    if (keyForPurchase.has(slot)) {
      issue(['download_keys', i, 'purchase_id'], `purchase ${key.purchase_id} already has download key ${keyForPurchase.get(slot)}`);
    }
    keyForPurchase.set(slot, key.id);
  });
}
