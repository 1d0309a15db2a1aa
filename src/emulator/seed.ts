/*
 * A seed as the emulator reads it: the entries' schemas (seed-entries.ts) with the rules across
 * entries (seed-relations.ts), and reading one from an object or a JSON file.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { EmulatorError } from './emulator-error.js';
import { seedObjectSchema } from './seed-entries.js';
import { checkRelations } from './seed-relations.js';

export {
  redirectUriSchema,
  type ApiKeyRecord,
  type CollectionRecord,
  type DownloadKeyRecord,
  type GameRecord,
  type JwtRecord,
  type OAuthApplicationRecord,
  type PurchaseRecord,
  type RewardClaimRecord,
  type RewardRecord,
  type SeedObject,
  type UserRecord,
} from './seed-entries.js';

/** Zod schema of a seed; `z.input` of it is what a seed file holds. */
export const seedSchema = seedObjectSchema.superRefine(checkRelations);

/** A seed as written (JSON), before defaults are applied. */
export type SeedInput = z.input<typeof seedSchema>;
/** A validated seed, defaults applied and dates parsed. */
export type Seed = z.output<typeof seedSchema>;

/** Thrown when a seed cannot be read or is invalid; the message names the bad entries by path. */
export class EmulatorSeedError extends EmulatorError {
  override name = 'EmulatorSeedError';

  constructor(message: string) {
    super('invalid_seed', message);
  }
}

/**
 * Validates seed data.
 * @param source names the data in the error message (a file name, or "seed object").
 * @throws EmulatorSeedError listing every problem with its path, e.g. `→ at games[1].user_id`.
 */
export function parseSeed(data: unknown, source = 'seed object'): Seed {
  const result = seedSchema.safeParse(data);
  if (!result.success) {
    throw new EmulatorSeedError(`Invalid emulator seed (${source}):\n${z.prettifyError(result.error)}`);
  }
  return result.data;
}

/**
 * Reads and validates a seed: `data` is a seed object, or the path of a JSON file holding one.
 * @throws EmulatorSeedError when the file cannot be read, is not JSON, or the seed is invalid.
 */
export async function loadSeed(data: unknown): Promise<Seed> {
  if (typeof data !== 'string') return parseSeed(data);
  let text: string;
  try {
    text = await readFile(data, 'utf8');
  } catch (error) {
    throw new EmulatorSeedError(`Cannot read emulator seed file ${data}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new EmulatorSeedError(`Emulator seed file ${data} is not valid JSON: ${(error as Error).message}`);
  }
  return parseSeed(json, data);
}
