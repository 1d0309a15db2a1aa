import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  credentialInfoSchema,
  errorsResponseSchema,
  meResponseSchema,
  parseItchDate,
  purchasesResponseSchema,
  userSchema,
} from '../../src/server/itch-api/schemas.js';

const user = { id: 1, username: 'leafo', url: 'https://leafo.itch.io', gamer: true, developer: true, press_user: false };

describe('parseItchDate', () => {
  it('reads "YYYY-MM-DD HH:MM:ss" as UTC', () => {
    assert.equal(parseItchDate('2017-10-19 13:35:06')?.toISOString(), '2017-10-19T13:35:06.000Z');
  });

  it('applies an RFC 3339 offset', () => {
    assert.equal(parseItchDate('2017-10-19T15:35:06+02:00')?.toISOString(), '2017-10-19T13:35:06.000Z');
  });

  it('keeps milliseconds of a fractional second', () => {
    assert.equal(parseItchDate('2017-10-19T13:35:06.123456Z')?.toISOString(), '2017-10-19T13:35:06.123Z');
  });

  it('refuses an impossible date', () => {
    assert.equal(parseItchDate('2017-02-30 00:00:00'), undefined);
  });

  it('refuses text that is not a date', () => {
    assert.equal(parseItchDate('yesterday'), undefined);
  });
});

describe('schemas', () => {
  it('reads an empty list sent as {} as []', () => {
    assert.deepEqual(purchasesResponseSchema.parse({ purchases: {} }).purchases, []);
  });

  it('refuses a non-empty object where a list belongs', () => {
    assert.equal(purchasesResponseSchema.safeParse({ purchases: { 0: 'x' } }).success, false);
  });

  it('reads scopes sent as {} as no scopes', () => {
    assert.deepEqual(credentialInfoSchema.parse({ scopes: {} }).scopes, []);
  });

  it('accepts a user without display_name and cover_url', () => {
    assert.equal(userSchema.safeParse(user).success, true);
  });

  it('refuses an id that is not an integer', () => {
    assert.equal(meResponseSchema.safeParse({ user: { ...user, id: '1' } }).success, false);
    assert.equal(meResponseSchema.safeParse({ user: { ...user, id: 1.5 } }).success, false);
  });

  it('keeps fields it does not know', () => {
    assert.equal(meResponseSchema.parse({ user: { ...user, still_cover_url: 'x' } }).user['still_cover_url'], 'x');
  });

  it('refuses a date it cannot read', () => {
    assert.equal(credentialInfoSchema.safeParse({ scopes: [], expires_at: '19/10/2017' }).success, false);
  });

  it('refuses errors that are not a list of strings', () => {
    assert.equal(errorsResponseSchema.safeParse({ errors: 'invalid key' }).success, false);
    assert.equal(errorsResponseSchema.safeParse({ errors: [1] }).success, false);
  });
});
