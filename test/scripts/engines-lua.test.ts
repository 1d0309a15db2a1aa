// engines/defold: the Lua module parses (luac -p, Debian's lua5.4; Defold runs LuaJIT, Lua 5.1's
// syntax, which the module keeps to), and runs in Debian's Lua 5.1 under stand-ins of html5.run,
// jstodef's listener and json.encode (fixtures/defold/run.lua). Defold itself cannot run here.
// Without luac or lua5.1 the checks are skipped, unless CI=true. GML has no checker on Debian.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const module = fileURLToPath(new URL('../../engines/defold/itch_login/itch_login.lua', import.meta.url));
const example = fileURLToPath(new URL('../../engines/defold/example/login.script', import.meta.url));
const luac = ['luac5.4', 'luac5.3', 'luac5.1', 'luac'].find((name) => spawnSync(name, ['-v']).status === 0);
const skip = luac !== undefined || process.env.CI === 'true' ? false : 'luac is missing: apt-get install lua5.4 (CI=true fails instead)';
const hasLua51 = spawnSync('lua5.1', ['-v']).status === 0;
const skip51 = hasLua51 || process.env.CI === 'true' ? false : 'lua5.1 is missing: apt-get install lua5.1 (CI=true fails instead)';
const engines = fileURLToPath(new URL('../../engines/defold', import.meta.url));
const harness = fileURLToPath(new URL('./fixtures/defold/run.lua', import.meta.url));

/** Runs the module in Lua 5.1 on a page with or without itch_login.js; the harness's lines. */
function runInLua51(page: 'with-half' | 'no-half' | 'fetch' | 'restore'): string[] {
  const run = spawnSync('lua5.1', [harness, page, engines], { encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  return run.stdout.trim().split('\n');
}

describe('engines/defold itch_login.lua', () => {
  // (One file a run: Debian's luac5.4 4 aborts with a double free when given two.)
  for (const file of [module, example]) {
    it(`parses ${file.slice(file.indexOf('engines/'))}`, { skip }, () => {
      const run = spawnSync(luac ?? 'luac', ['-p', file], { encoding: 'utf8' });
      assert.equal(run.status, 0, `${run.stdout}${run.stderr}${run.error ?? ''}`);
    });
  }

  it('keeps to Lua 5.1: no goto, integer division or bitwise operators', () => {
    const code = spawnSync('sed', ['-e', 's/--.*$//', module], { encoding: 'utf8' }).stdout;
    assert.doesNotMatch(code, /\bgoto\b|\/\/|[^~]~[^=]|<<|>>|&|\|/);
  });

  it('runs in Lua 5.1: login returns the id, and the callback gets the self of the script that called init()', { skip: skip51 }, () => {
    assert.deepEqual(runInLua51('with-half'), [
      'login returned 1',
      'ran typeof window.ItchLoginDefold | ItchLoginDefold.login({"clientId":"c","mode":"popup"})',
      'callback self=login.script ok=true code=nil user=mossy',
    ]);
  });

  it(
    "runs in Lua 5.1: fetch passes the URL and init to the page as JSON, and the callback gets the answer's status and body",
    { skip: skip51 },
    () => {
      assert.deepEqual(runInLua51('fetch'), [
        'fetch returned 2',
        'ran typeof window.ItchLoginDefold | ItchLoginDefold.fetch({"init":{"body":"{\\"stars\\":\\"3\\"}","method":"PUT"},"url":"https://game.example/api/progress"})',
        'fetch callback self=login.script status=200 body={}',
      ]);
    },
  );

  it(
    'runs in Lua 5.1: restore passes the options to the page as JSON, and each callback gets restored with the player, or false',
    { skip: skip51 },
    () => {
      assert.deepEqual(runInLua51('restore'), [
        'restore returned 3 and 4',
        'ran typeof window.ItchLoginDefold | ItchLoginDefold.restore({"clientId":"c","renew":"https://game.example/api/renew"}) | typeof window.ItchLoginDefold | ItchLoginDefold.restore({"clientId":"c","renew":"https://game.example/api/renew"})',
        'restore callback self=login.script restored=true user=mossy',
        'restore callback self=login.script restored=false user=nil',
      ]);
    },
  );

  it('runs in Lua 5.1: a page without itch_login.js calls back config_invalid before html5.run starts anything', { skip: skip51 }, () => {
    assert.deepEqual(runInLua51('no-half'), [
      'callback self=nil ok=false code=config_invalid user=nil',
      'login returned nil',
      'ran typeof window.ItchLoginDefold',
    ]);
  });
});
