// engines/unity: ItchLogin.cs and the examples ItchLoginButton.cs and ItchSaveButton.cs compile with Mono's C# compiler
// (Debian's mono-mcs) against a stub of the UnityEngine types they use, for the WebGL build (UNITY_WEBGL: the [DllImport("__Internal")]
// functions) and for the editor; the editor's build runs under Mono (Harness.cs); and the functions
// it imports are those ItchLogin.jslib defines. Unity itself cannot run here. Without mcs and mono
// these are skipped, unless CI=true.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const file = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const script = file('engines/unity/Scripts/ItchLogin.cs');
const examples = ['ItchLoginButton.cs', 'ItchSaveButton.cs'].map((name) => file(`engines/unity/Scripts/${name}`));
const jslib = file('engines/unity/Plugins/WebGL/ItchLogin.jslib');
const stub = file('test/scripts/fixtures/unity-stub/UnityEngine.cs');
const harness = file('test/scripts/fixtures/unity-stub/Harness.cs');

const hasMcs = spawnSync('mcs', ['--version'], { encoding: 'utf8' }).status === 0 && spawnSync('mono', ['--version']).status === 0;
const skip = hasMcs || process.env.CI === 'true' ? false : 'mcs or mono is missing: apt-get install mono-mcs (CI=true fails instead)';
const out = mkdtempSync(join(tmpdir(), 'itch-login-cs-'));
after(() => rmSync(out, { recursive: true, force: true }));

function compile(defines: string[]): { status: number | null; output: string } {
  const run = spawnSync(
    'mcs',
    [
      '-warnaserror',
      '-target:library',
      `-out:${join(out, `${defines.join('-') || 'editor'}.dll`)}`,
      ...defines.map((name) => `-define:${name}`),
      stub,
      script,
      ...examples,
    ],
    { encoding: 'utf8' },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Builds ItchLogin.cs for the editor with Harness.cs, runs it under Mono, and returns its lines. */
function runInEditor(): string[] {
  const exe = join(out, 'harness.exe');
  const build = spawnSync('mcs', ['-warnaserror', `-out:${exe}`, stub, script, harness], { encoding: 'utf8' });
  assert.equal(build.status, 0, `${build.stdout}${build.stderr}`);
  const run = spawnSync('mono', [exe], { encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  return run.stdout.trim().split('\n');
}

describe('engines/unity ItchLogin.cs', () => {
  it('compiles for a WebGL build, without a warning', { skip }, () => {
    const { status, output } = compile(['UNITY_WEBGL']);
    assert.equal(status, 0, output);
  });

  it('compiles in the editor (no WebGL), without a warning', { skip }, () => {
    const { status, output } = compile([]);
    assert.equal(status, 0, output);
  });

  it('outside a WebGL build, Login answers onError("config_invalid") and throws nothing out of the click', { skip }, () => {
    assert.equal(runInEditor()[0], 'login returned "", onError config_invalid ItchLogin works in a WebGL build only');
  });

  it("the onError that also takes the player's sentence gets one, empty outside WebGL (no page to say it)", { skip }, () => {
    assert.equal(runInEditor()[1], 'login returned "", onError config_invalid ItchLogin works in a WebGL build only player ""');
  });

  it('outside a WebGL build, Fetch answers onAnswer(0, "") at once and throws nothing', { skip }, () => {
    assert.equal(runInEditor()[2], 'fetch returned "", onAnswer 0 ""');
  });

  it('outside a WebGL build, Restore answers onRestored(null) at once: no login to find, and nothing thrown at start', { skip }, () => {
    assert.equal(runInEditor()[3], 'restore returned "", onRestored null');
  });

  it('marks what only SendMessage and JsonUtility reach [Preserve], against High stripping', { skip }, () => {
    assert.deepEqual(runInEditor().slice(4), [
      'method OnItchLoginSuccess preserved: True',
      'method OnItchLoginError preserved: True',
      'method OnItchFetchAnswer preserved: True',
      'class Options preserved: True',
      'class Failure preserved: True',
    ]);
  });

  it('imports exactly the functions ItchLogin.jslib defines', () => {
    const imported = [...readFileSync(script, 'utf8').matchAll(/static extern \w+ (\w+)\(/g)].map((match) => match[1]).sort();
    const defined = [...readFileSync(jslib, 'utf8').matchAll(/^ {2}(\w+): function/gm)].map((match) => match[1]).sort();
    assert.deepEqual(imported, ['ItchLogin_Cancel', 'ItchLogin_Fetch', 'ItchLogin_Login', 'ItchLogin_Restore']);
    assert.deepEqual(defined, imported);
  });

  it('has the methods ItchLogin.jslib calls through SendMessage, each taking one string', () => {
    const source = readFileSync(script, 'utf8');
    const sent = [...new Set([...readFileSync(jslib, 'utf8').matchAll(/SendMessage\(\s*\w+,\s*'(\w+)'/g)].map((match) => match[1]))];
    assert.deepEqual(sent.sort(), ['OnItchFetchAnswer', 'OnItchLoginError', 'OnItchLoginSuccess']);
    for (const method of sent) assert.match(source, new RegExp(`void ${method}\\(string \\w+\\)`));
  });
});
