// engines/unity: ItchLogin.jslib linked by Emscripten (Debian's emscripten: emcc --js-library, as
// Unity's WebGL build links a .jslib) with a C caller (fixtures/unity-jslib/main.c), and run in Node
// with stand-ins of the bridge and of Unity's SendMessage (fixtures/unity-jslib/pre.js): the
// library links with its declared signatures, strings cross the heap both ways, and the outcome
// reaches SendMessage. Unity's own player cannot run here. Without emcc this is skipped, unless CI=true.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const file = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const hasEmcc = spawnSync('emcc', ['--version']).status === 0;
const skip = hasEmcc || process.env.CI === 'true' ? false : 'emcc is missing: apt-get install emscripten (CI=true fails instead)';
const out = mkdtempSync(join(tmpdir(), 'itch-login-jslib-'));
after(() => rmSync(out, { recursive: true, force: true }));

describe('engines/unity ItchLogin.jslib, linked by emcc', { skip }, () => {
  let lines: string[] = [];
  before(() => {
    const program = join(out, 'program.js');
    const link = spawnSync(
      'emcc',
      [
        file('test/scripts/fixtures/unity-jslib/main.c'),
        '--js-library',
        file('engines/unity/Plugins/WebGL/ItchLogin.jslib'),
        '--pre-js',
        file('test/scripts/fixtures/unity-jslib/pre.js'),
        // Unity's build exports _malloc too; Node, and the wasm compiled at once (Emscripten 3.1.6
        // would fetch() a file path under Node 18+).
        '-sEXPORTED_FUNCTIONS=_main,_malloc',
        '-sENVIRONMENT=node',
        '-sWASM_ASYNC_COMPILATION=0',
        '-o',
        program,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(link.status, 0, `${link.stdout}${link.stderr}`);
    const run = spawnSync(process.execPath, [program], { encoding: 'utf8' });
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    lines = run.stdout.trim().split('\n');
  });

  it("passes the options to the bridge without the fields JsonUtility left empty, and returns the login's id as a C string", () => {
    assert.equal(
      lines[0],
      'bridge.login {"clientId":"emu-client","redirectUri":"https://game.example/callback.html","backend":"https://game.example/auth/itch","scope":"profile:me","mode":"popup"} ItchLoginUnity.settled',
    );
    assert.equal(lines[1], 'login returned 1');
    assert.equal(lines[3], 'login returned 2');
  });

  it('cancels a login by its id (1), and nothing for an unknown one (0)', () => {
    assert.deepEqual(lines.slice(4, 6), ['cancel 2: 1', 'cancel 99: 0']);
  });

  it("passes a fetch's method and body (as application/json) to the bridge's fetch, and returns its id as a C string", () => {
    assert.deepEqual(lines.slice(6, 10), [
      'bridge.fetch https://game.example/api/progress {"method":"PUT","headers":{"Content-Type":"application/json"},"body":"{\\"stars\\":3}"} ItchLoginUnityFetch.settled',
      'fetch returned 3',
      'bridge.fetch https://game.example/api/progress {"method":"GET"} ItchLoginUnityFetch.settled',
      'fetch returned 4',
    ]);
  });

  it("passes a restore's options to the bridge's restore without the empty fields, and returns its id as a C string", () => {
    assert.deepEqual(lines.slice(10, 14), [
      'bridge.restore {"clientId":"emu-client","backend":"https://game.example/auth/itch","renew":"https://game.example/api/renew"} ItchLoginUnityRestore.settled',
      'restore returned 5',
      'bridge.restore {"clientId":"emu-client"} ItchLoginUnityRestore.settled',
      'restore returned 6',
    ]);
  });

  it("sends each outcome to its own GameObject: OnItchLoginSuccess with the id and the answer (a restore's: the kept login, or null), OnItchLoginError with the code and the player's sentence, OnItchFetchAnswer with the status (0: no answer) and the body", () => {
    assert.deepEqual(lines.slice(14).sort(), [
      `SendMessage ${JSON.stringify(['ItchLogin', 'OnItchFetchAnswer', '3\n204\n'])}`,
      `SendMessage ${JSON.stringify(['ItchLogin', 'OnItchLoginSuccess', '1\n{"user":{"id":1002,"username":"mossy"},"owns":{"2001":true}}'])}`,
      `SendMessage ${JSON.stringify(['ItchLogin', 'OnItchLoginSuccess', '5\n{"user":{"id":1002,"username":"mossy"},"owns":{"2001":true}}'])}`,
      `SendMessage ${JSON.stringify(['Other Object', 'OnItchFetchAnswer', '4\n0\n'])}`,
      `SendMessage ${JSON.stringify(['Other Object', 'OnItchLoginError', '{"id":"2","code":"aborted","message":"The login was cancelled.","playerMessage":"The login was cancelled."}'])}`,
      `SendMessage ${JSON.stringify(['Other Object', 'OnItchLoginSuccess', '6\nnull'])}`,
    ]);
  });

  it('declares the signature of each function (p for a char*, i for an int), as WebAssembly 64 needs', () => {
    const library: Record<string, unknown> = {};
    new Function('mergeInto', 'LibraryManager', readFileSync(file('engines/unity/Plugins/WebGL/ItchLogin.jslib'), 'utf8'))(
      (target: object, functions: object) => Object.assign(target, functions),
      { library },
    );
    const signatures: Record<string, unknown> = Object.fromEntries(Object.entries(library).filter(([name]) => name.endsWith('__sig')));
    assert.deepEqual(signatures, {
      ItchLogin_Login__sig: 'ppp',
      ItchLogin_Restore__sig: 'ppp',
      ItchLogin_Fetch__sig: 'ppppp',
      ItchLogin_Cancel__sig: 'ip',
    });
    for (const [name, value] of Object.entries(library))
      if (typeof value === 'function') assert.equal(String(library[`${name}__sig`]).length, value.length + 1, name);
  });
});
