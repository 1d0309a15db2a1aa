/*
 * Which of the store's Durable Objects holds a key. One object runs one request at a time, about
 * a thousand simple ones a second (Cloudflare's figure), so one object for a whole site is the
 * ceiling of every login on it. The store spreads its keys over {@link SHARDS} objects of the
 * namespace, named `<name>:0` … `<name>:15`, each key always on the same one.
 *
 * What must be read together is kept together: a popup login's entries (the login, its claims,
 * its notice, its code binding) go by the place of their slot on the relay's ring of slots
 * (`relayPlaceOf`), 64 adjacent slots of 1,024 per object, so that a collection reads a login
 * and its notice in one request, and a code binding's 16 probes reach at most two objects. Every
 * other key (a revoked session, a counter, an account's waiting logins) goes by a hash of the
 * key. No operation of the store spans two keys, so which object holds a key changes how many
 * requests a step costs, never what it answers.
 * @see https://developers.cloudflare.com/durable-objects/reference/faq/ (how much work a single Durable Object can do)
 */
import { relayPlaceOf } from '../server/popup/relay.js';

/**
 * How many objects: 16 lifts the ceiling sixteenfold (about 16,000 simple requests a second)
 * while a listing (`getKeys`, `clear`, rare) asks 16 objects, and each object still holds 64
 * whole notice slots. Fixed: a key must find the object it was written to, so changing it would
 * lose what the store holds (revoked sessions among it).
 */
export const SHARDS = 16;

/** The name of shard `shard` of the store named `name` (`idFromName` takes it). */
export function shardName(name: string, shard: number): string {
  return `${name}:${shard}`;
}

/** The shard that holds `key`. */
export function shardOf(key: string): number {
  const place = relayPlaceOf(key);
  return place === undefined ? fnv1a(key) % SHARDS : Math.floor(place * SHARDS);
}

/**
 * FNV-1a, 32 bits, over the key's UTF-16 code units: spreads keys evenly; not for secrets.
 * @see https://datatracker.ietf.org/doc/html/draft-eastlake-fnv
 */
function fnv1a(key: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < key.length; at++) hash = Math.imul(hash ^ key.charCodeAt(at), 0x01000193);
  return hash >>> 0;
}
