/**
 * Why the emulator refused a call of its own API (`startEmulator`, `issueToken`, a seed, …), as
 * opposed to the itch.io API it serves, whose refusals are HTTP answers (`ApiError`). Callers
 * branch on `code`, never on `message`.
 *
 * - `invalid_option`: an option of `startEmulator` (a non-loopback host, a page size, a redirect URI).
 * - `invalid_seed`: the seed cannot be read or breaks its schema (`EmulatorSeedError`).
 * - `unknown_record`: no user or OAuth application with that id.
 * - `not_listening`: the server has no TCP address.
 */
export type EmulatorErrorCode = 'invalid_option' | 'invalid_seed' | 'unknown_record' | 'not_listening';

/** A refusal of the emulator's own API (not of the itch.io API it serves), with a stable `code`. */
export class EmulatorError extends Error {
  override name = 'EmulatorError';

  constructor(
    readonly code: EmulatorErrorCode,
    message: string,
  ) {
    super(message);
  }
}
