// Which locale is chosen: BCP 47 lookup by language, Accept-Language by quality.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOCALES } from '../../src/i18n/catalogue.js';
import { matchLocale } from '../../src/i18n/match.js';
import { acceptedLanguages, pageWords } from '../../src/i18n/pages.js';

const pick = (...preferred: string[]) => matchLocale(preferred, LOCALES);

describe('matchLocale', () => {
  it('takes a shipped locale as it is, in any case', () => {
    assert.equal(pick('de'), 'de');
    assert.equal(pick('pt-br'), 'pt-BR');
    assert.equal(pick('ZH-cn'), 'zh-CN');
  });
  it('takes a region or a script of a shipped language to that language: de-AT and de-CH are de', () => {
    assert.equal(pick('de-AT'), 'de');
    assert.equal(pick('de-CH'), 'de');
    assert.equal(pick('es-419'), 'es');
    assert.equal(pick('fr-CA'), 'fr');
  });
  it('gives Brazilian Portuguese to pt and pt-PT', () => {
    assert.equal(pick('pt'), 'pt-BR');
    assert.equal(pick('pt-PT'), 'pt-BR');
  });
  it('gives zh-CN to zh, zh-Hans and zh-SG, and not to Traditional Chinese (zh-TW, zh-HK, zh-Hant)', () => {
    assert.equal(pick('zh'), 'zh-CN');
    assert.equal(pick('zh-Hans'), 'zh-CN');
    assert.equal(pick('zh-SG'), 'zh-CN');
    assert.equal(pick('zh-TW'), undefined);
    assert.equal(pick('zh-HK'), undefined);
    assert.equal(pick('zh-Hant'), undefined);
    assert.equal(pick('zh-TW', 'ja'), 'ja');
  });
  it('goes down the list past languages it lacks, and past what is not a language tag', () => {
    assert.equal(pick('nl', '*', '', 'not a tag', 'ko'), 'ko');
    assert.equal(pick('nl', 'sv'), undefined);
  });
  it('prefers an exact tag a site added over the language match', () => {
    assert.equal(matchLocale(['pt-PT'], [...LOCALES, 'pt-PT']), 'pt-PT');
    assert.equal(matchLocale(['nl-BE'], [...LOCALES, 'nl']), 'nl');
  });
});

describe('Accept-Language', () => {
  it('orders by quality, then by order, and leaves out q=0', () => {
    assert.deepEqual(acceptedLanguages('fr;q=0.5, de-AT, en;q=0.8, ru;q=0, ja'), ['de-AT', 'ja', 'en', 'fr']);
  });
  it('reads an absent, empty or malformed header as no preference', () => {
    assert.deepEqual(acceptedLanguages(undefined), []);
    assert.deepEqual(acceptedLanguages(''), []);
    assert.deepEqual(acceptedLanguages(';q=1, de;q=x'), []);
  });
  it('picks the pages best language the package has, else English', () => {
    assert.equal(pageWords('nl, de;q=0.9, en;q=0.8').locale, 'de');
    assert.equal(pageWords('de;q=0.1, fr;q=0.2').locale, 'fr');
    assert.equal(pageWords('nl, sv').locale, 'en');
    assert.equal(pageWords('*').locale, 'en');
    assert.equal(pageWords(null).words.title, 'Log in with itch.io');
    assert.equal(pageWords('ja').words.title, 'itch.io でログイン');
  });
});
