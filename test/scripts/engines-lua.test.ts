// engines/defold: the Lua module parses (luac -p, Debian's lua5.4; Defold runs LuaJIT, Lua 5.1's
// syntax, which the module keeps to). Defold itself cannot run here. Without luac the check is
// skipped, unless CI=true. GDScript and GML have no checker on Debian: they are not checked.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const module = fileURLToPath(new URL('../../engines/defold/itch_login/itch_login.lua', import.meta.url));
const example = fileURLToPath(new URL('../../engines/defold/example/login.script', import.meta.url));
const luac = ['luac5.4', 'luac5.3', 'luac5.1', 'luac'].find((name) => spawnSync(name, ['-v']).status === 0);
const skip = luac !== undefined || process.env.CI === 'true' ? false : 'luac is missing: apt-get install lua5.4 (CI=true fails instead)';

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
});
