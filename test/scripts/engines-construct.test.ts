// engines/construct: itch-login.js with on-login-clicked.js (and on-save-clicked.js, on-start-of-layout.js) after a minifier that renames
// properties, as Construct's export with "Minify script: Advanced" does (Closure Compiler's
// advanced mode renames every property written obj.name, never one written obj["name"]): esbuild
// joins the two as Construct's project does, terser renames the properties (mangle.properties,
// keep_quoted "strict": quoted names kept, https://terser.org/docs/options/#mangle-properties-options),
// and the result runs in Node under stand-ins of ItchOAuth.bridge and runtime.callFunction.
// Construct's runtime itself cannot run here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { minify } from 'terser';

const construct = fileURLToPath(new URL('../../engines/construct/', import.meta.url));

/**
 * The drop-in as an event sheet's script action uses it, with the property names renamed. Construct
 * runs a script action as an async function (on-save-clicked.js awaits).
 */
async function minified(action = 'on-login-clicked.js'): Promise<string> {
  const joined = await build({
    stdin: {
      // importsForEvents.js imports the module; the action's `runtime` is the event's.
      contents: `import * as ItchLogin from './itch-login.js';\nconst runtime = globalThis['testRuntime'];\n(async () => {\n${readFileSync(`${construct}${action}`, 'utf8')}\n})();`,
      resolveDir: construct,
    },
    bundle: true,
    format: 'iife',
    write: false,
  });
  const result = await minify(joined.outputFiles[0]!.text, {
    mangle: { properties: { keep_quoted: 'strict' } },
    compress: true,
  });
  return result.code!;
}

/** A login the bridge answers with: Mossy Pine, who owns game 2001. */
const MOSSY_LOGIN = {
  ok: true,
  response: { user: { id: 1002, username: 'mossy', display_name: 'Mossy Pine' }, owns: { 2001: true } },
};

/** The options itch-login.js passes to the bridge, under their own names. */
const DROP_IN_OPTIONS = {
  clientId: 'YOUR_CLIENT_ID',
  redirectUri: 'https://mygame.example/callback.html',
  backend: 'https://mygame.example/auth/itch',
  renew: 'https://mygame.example/api/renew',
  mode: 'popup',
};

interface Run {
  options: Record<string, unknown>;
  calls: unknown[][];
  errors: string[];
}

/**
 * Runs the minified `action` under stand-ins: the bridge's `method` hands its arguments to
 * `record` and settles with `result` through the callback name it was given (its last argument);
 * the action's `runtime` is `runtime`.
 */
async function runAction(
  action: string,
  method: 'login' | 'fetch' | 'restore',
  record: (args: string[]) => void,
  result: object,
  runtime: object,
): Promise<void> {
  const code = await minified(action);
  const scope = globalThis as Record<string, unknown>;
  try {
    scope['ItchOAuth'] = {
      bridge: {
        [method](...args: string[]) {
          record(args);
          const [object, callback] = args.at(-1)!.split('.') as [string, string];
          queueMicrotask(() =>
            (scope[object] as Record<string, (json: string) => void>)[callback]!(JSON.stringify({ id: '1', ...result })),
          );
          return '1';
        },
      },
    };
    scope['testRuntime'] = runtime;
    new Function(code)();
    await new Promise((resolve) => setTimeout(resolve, 10));
  } finally {
    delete scope['ItchOAuth'];
    delete scope['testRuntime'];
    delete scope['ItchLoginConstruct'];
  }
}

/** Runs the minified drop-in: its login settles with `result`; the runtime's callFunction is `callFunction`. */
async function run(result: object, callFunction?: (name: string, ...params: unknown[]) => unknown): Promise<Run> {
  const seen: Run = { options: {}, calls: [], errors: [] };
  const errorBefore = console.error;
  console.error = (...args: unknown[]) => void seen.errors.push(args.map(String).join(' '));
  try {
    await runAction(
      'on-login-clicked.js',
      'login',
      ([optionsJson]) => (seen.options = JSON.parse(optionsJson!) as Record<string, unknown>),
      result,
      {
        callFunction: (name: string, ...params: unknown[]) => {
          seen.calls.push([name, ...params]);
          return callFunction?.(name, ...params);
        },
      },
    );
    return seen;
  } finally {
    console.error = errorBefore;
  }
}

describe('engines/construct after property renaming', () => {
  it('renames the properties written obj.name (the control: the minifier does what Advanced mode does)', async () => {
    const code = await minified();
    // The drop-in's own record of a login: its key renamed, the quoted name it reads kept.
    const record = /[{,](\w+):\w+\.succeeded\?\?"ItchLoginSucceeded"/.exec(code);
    assert.ok(record, code);
    assert.notEqual(record[1], 'succeeded');
  });

  it('passes the options under their own names, and the answer reaches ItchLoginSucceeded whole', async () => {
    const seen = await run(MOSSY_LOGIN);
    assert.deepEqual(seen.options, DROP_IN_OPTIONS);
    assert.deepEqual(seen.calls, [
      [
        'ItchLoginSucceeded',
        '{"user":{"id":1002,"username":"mossy","display_name":"Mossy Pine"},"owns":{"2001":true}}',
        1002,
        'Mossy Pine',
        '{"2001":true}',
      ],
    ]);
    assert.deepEqual(seen.errors, []);
  });

  it("a failure reaches ItchLoginFailed with its code, message and the player's sentence", async () => {
    const seen = await run({
      ok: false,
      code: 'popup_closed',
      message: 'The popup was closed.',
      playerMessage: 'The itch.io window was closed before the login finished.',
    });
    assert.deepEqual(seen.calls, [
      ['ItchLoginFailed', 'popup_closed', 'The popup was closed.', 'The itch.io window was closed before the login finished.'],
    ]);
  });

  it('an event sheet function that is missing (callFunction throws, or rejects) is logged, not lost', async () => {
    const thrown = await run({ ok: false, code: 'aborted', message: 'x' }, () => {
      throw new Error('no function ItchLoginFailed');
    });
    assert.match(
      thrown.errors.join('\n'),
      /ItchLogin: the event sheet function "ItchLoginFailed" is missing or failed.*no function ItchLoginFailed/,
    );
    const rejected = await run({ ok: false, code: 'aborted', message: 'x' }, () => Promise.reject(new Error('rejected')));
    assert.match(rejected.errors.join('\n'), /"ItchLoginFailed" is missing or failed.*rejected/);
  });
});

/** Runs the minified save action: the bridge's fetch settles with `result`; returns what it saw and the action's globals. */
async function runSave(result: object): Promise<{ url: string; init: unknown; callback: string; globalVars: Record<string, unknown> }> {
  const seen = { url: '', init: undefined as unknown, callback: '', globalVars: { Stars: 7 } as Record<string, unknown> };
  const record = ([url, initJson, callbackName]: string[]) =>
    Object.assign(seen, { url, init: JSON.parse(initJson!), callback: callbackName });
  await runAction('on-save-clicked.js', 'fetch', record, result, { globalVars: seen.globalVars });
  return seen;
}

describe('engines/construct ItchLogin.fetch after property renaming', () => {
  it("passes fetch()'s init under its own names, and the answer's status and body reach the action", async () => {
    const seen = await runSave({ ok: true, response: { status: 204, body: '' } });
    assert.equal(seen.url, 'https://mygame.example/api/progress');
    assert.deepEqual(seen.init, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{"stars":7}' });
    assert.equal(seen.callback, 'ItchLoginConstruct.fetched');
    assert.equal(seen.globalVars['Saved'], true);
  });

  it('resolves with status 0 when no answer came (never rejects into the event sheet)', async () => {
    const seen = await runSave({ ok: false, code: 'network_error', message: 'offline' });
    assert.equal(seen.globalVars['Saved'], false);
  });
});

/** Runs the minified start-of-layout action: the bridge's restore settles with `result`; what it saw, the action's globals and warnings. */
async function runRestore(
  result: object,
): Promise<{ options: unknown; callback: string; globalVars: Record<string, unknown>; warnings: string[] }> {
  const seen = { options: undefined as unknown, callback: '', globalVars: {} as Record<string, unknown>, warnings: [] as string[] };
  const warnBefore = console.warn;
  console.warn = (...args: unknown[]) => void seen.warnings.push(args.map(String).join(' '));
  try {
    const record = ([optionsJson, callbackName]: string[]) =>
      Object.assign(seen, { options: JSON.parse(optionsJson!), callback: callbackName });
    await runAction('on-start-of-layout.js', 'restore', record, result, { globalVars: seen.globalVars });
    return seen;
  } finally {
    console.warn = warnBefore;
  }
}

describe('engines/construct ItchLogin.restore after property renaming', () => {
  it("passes the login's options under their own names, and a kept login's player reaches the action", async () => {
    const seen = await runRestore(MOSSY_LOGIN);
    assert.deepEqual(seen.options, DROP_IN_OPTIONS);
    assert.equal(seen.callback, 'ItchLoginConstruct.restored');
    assert.deepEqual(seen.globalVars, { SignedIn: true, PlayerName: 'Mossy Pine' });
  });

  it('resolves with null when no login was kept: the login button stays', async () => {
    const seen = await runRestore({ ok: true, response: null });
    assert.deepEqual(seen.globalVars, { SignedIn: false, PlayerName: '' });
    assert.deepEqual(seen.warnings, []);
  });

  it('resolves with null after a failure, logged as a warning (never rejects into the event sheet)', async () => {
    const seen = await runRestore({ ok: false, code: 'config_invalid', message: 'restore() needs renew' });
    assert.deepEqual(seen.globalVars, { SignedIn: false, PlayerName: '' });
    assert.deepEqual(seen.warnings, ['ItchLogin.restore: config_invalid: restore() needs renew']);
  });
});
