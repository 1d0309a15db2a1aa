import { expect } from '@open-wc/testing';
import { ItchOAuthError } from '../../src/core/errors.js';
import {
  STATE_KEY_PREFIX,
  STATE_LIFETIME_MS,
  consumeFlow,
  createState,
  pruneExpired,
  saveFlow,
  type FlowRecord,
  type StateStorage,
} from '../../src/core/state.js';

const record = (createdAt = Date.now()): FlowRecord => ({
  returnTo: '/games?id=1',
  mode: 'redirect',
  clientId: 'abc',
  redirectUri: 'https://game.example/callback',
  scope: 'profile:me',
  baseUrl: 'https://itch.io',
  createdAt,
});

function expectCode(fn: () => unknown, code: string, message: RegExp) {
  expect(fn).to.throw(ItchOAuthError, message).with.property('code', code);
}

/** A storage that throws on every call, like Safari's private mode used to. */
const brokenStorage: StateStorage = {
  get length(): number {
    throw new DOMException('denied', 'SecurityError');
  },
  key() {
    throw new DOMException('denied', 'SecurityError');
  },
  getItem() {
    throw new DOMException('denied', 'SecurityError');
  },
  setItem() {
    throw new DOMException('QuotaExceededError', 'QuotaExceededError');
  },
  removeItem() {
    throw new DOMException('denied', 'SecurityError');
  },
};

describe('state', () => {
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  it('is base64url of at least 128 bits', () => {
    const state = createState();
    expect(state).to.match(/^[A-Za-z0-9_-]+$/);
    expect(state.length * 6).to.be.at.least(128);
  });

  it('is fresh every time', () => {
    const states = new Set(Array.from({ length: 1000 }, createState));
    expect(states.size).to.equal(1000);
  });

  it('comes from crypto.getRandomValues', () => {
    const original = crypto.getRandomValues;
    let calls = 0;
    crypto.getRandomValues = ((array: Uint8Array<ArrayBuffer>) => {
      calls++;
      return original.call(crypto, array);
    }) as typeof crypto.getRandomValues;
    try {
      createState();
    } finally {
      crypto.getRandomValues = original;
    }
    expect(calls).to.equal(1);
  });

  it('finds a saved flow by its state', () => {
    const saved = record();
    saveFlow(sessionStorage, 'S1', saved);
    expect(consumeFlow(sessionStorage, 'S1')).to.deep.equal(saved);
  });

  it('keeps several flows pending at once', () => {
    saveFlow(sessionStorage, 'A', { ...record(), returnTo: '/a' });
    saveFlow(sessionStorage, 'B', { ...record(), returnTo: '/b' });
    expect(consumeFlow(sessionStorage, 'B').returnTo).to.equal('/b');
    expect(consumeFlow(sessionStorage, 'A').returnTo).to.equal('/a');
  });

  it('looks only in the storage given', () => {
    saveFlow(localStorage, 'P', record());
    expectCode(() => consumeFlow(sessionStorage, 'P'), 'state_mismatch', /unknown or already used/);
    localStorage.clear();
  });

  it('is consumed on first use', () => {
    saveFlow(sessionStorage, 'S1', record());
    consumeFlow(sessionStorage, 'S1');
    expectCode(() => consumeFlow(sessionStorage, 'S1'), 'state_mismatch', /unknown or already used/);
  });

  it('is deleted on lookup even when it has expired', () => {
    saveFlow(sessionStorage, 'OLD', record(Date.now() - STATE_LIFETIME_MS - 1));
    expectCode(() => consumeFlow(sessionStorage, 'OLD'), 'state_expired', /longer than 10 minutes/);
    expect(sessionStorage.getItem(`${STATE_KEY_PREFIX}OLD`)).to.equal(null);
  });

  it('says state_missing when no state came back', () => {
    expectCode(() => consumeFlow(sessionStorage, undefined), 'state_missing', /carries no state/);
    expectCode(() => consumeFlow(sessionStorage, ''), 'state_missing', /carries no state/);
  });

  it('says state_mismatch for an unknown state', () => {
    saveFlow(sessionStorage, 'MINE', record());
    expectCode(() => consumeFlow(sessionStorage, 'THEIRS'), 'state_mismatch', /unknown or already used/);
  });

  it('accepts a flow just inside ten minutes', () => {
    const now = Date.now();
    saveFlow(sessionStorage, 'S', record(now - STATE_LIFETIME_MS));
    expect(consumeFlow(sessionStorage, 'S', now).createdAt).to.equal(now - STATE_LIFETIME_MS);
  });

  it('says state_expired just past ten minutes', () => {
    const now = Date.now();
    saveFlow(sessionStorage, 'S', record(now - STATE_LIFETIME_MS - 1));
    expectCode(() => consumeFlow(sessionStorage, 'S', now), 'state_expired', /longer than 10 minutes/);
  });

  it('does not trust a record from the future', () => {
    const now = Date.now();
    sessionStorage.setItem(`${STATE_KEY_PREFIX}F`, JSON.stringify(record(now + STATE_LIFETIME_MS + 1)));
    expectCode(() => consumeFlow(sessionStorage, 'F', now), 'state_expired', /10 minutes/);
  });

  it('treats a tampered record as unknown', () => {
    sessionStorage.setItem(`${STATE_KEY_PREFIX}T`, JSON.stringify({ ...record(), mode: 'evil' }));
    expectCode(() => consumeFlow(sessionStorage, 'T'), 'state_mismatch', /unknown/);
    sessionStorage.setItem(`${STATE_KEY_PREFIX}N`, 'null');
    expectCode(() => consumeFlow(sessionStorage, 'N'), 'state_mismatch', /unknown/);
    sessionStorage.setItem(`${STATE_KEY_PREFIX}J`, 'not json');
    expectCode(() => consumeFlow(sessionStorage, 'J'), 'state_mismatch', /unknown/);
  });

  it('prunes expired records when a new flow is saved', () => {
    const now = Date.now();
    saveFlow(sessionStorage, 'OLD', record(now - STATE_LIFETIME_MS - 1000));
    saveFlow(sessionStorage, 'FRESH', record(now - 1000));
    sessionStorage.setItem('unrelated', 'kept');
    saveFlow(sessionStorage, 'NEW', record(now));
    expect(sessionStorage.getItem(`${STATE_KEY_PREFIX}OLD`)).to.equal(null);
    expect(sessionStorage.getItem(`${STATE_KEY_PREFIX}FRESH`)).to.not.equal(null);
    expect(sessionStorage.getItem('unrelated')).to.equal('kept');
  });

  it('counts a record without a creation time as expired', () => {
    sessionStorage.setItem(`${STATE_KEY_PREFIX}C`, JSON.stringify({ ...record(), createdAt: 'yesterday' }));
    expectCode(() => consumeFlow(sessionStorage, 'C'), 'state_expired', /10 minutes/);
  });

  it('never stores anything but the flow record', () => {
    saveFlow(sessionStorage, 'S', record());
    expect(JSON.parse(sessionStorage.getItem(`${STATE_KEY_PREFIX}S`)!)).to.have.all.keys(
      'returnTo',
      'mode',
      'clientId',
      'redirectUri',
      'scope',
      'baseUrl',
      'createdAt',
    );
  });

  it('gives cookies_blocked, not a crash, when storage cannot be written', () => {
    expectCode(
      () => saveFlow(brokenStorage, 'S', record()),
      'cookies_blocked',
      /^Your browser is blocking the cookies this login needs. Allow cookies for this site/,
    );
  });

  it('gives cookies_blocked, not a crash, when storage cannot be read', () => {
    expectCode(
      () => consumeFlow(brokenStorage, 'S'),
      'cookies_blocked',
      /^Your browser is blocking the cookies this login needs. Allow cookies for this site/,
    );
  });

  it('prunes quietly when storage is broken', () => {
    expect(() => pruneExpired(brokenStorage)).to.not.throw();
  });
});
