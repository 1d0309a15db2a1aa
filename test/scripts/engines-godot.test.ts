// engines/godot: what no Godot can check here. The addon runs in Godot's web runtime in
// test/engines/godot.test.ts; its editor plugin (plugin.gd) needs the editor, which no package
// ships: this checks that it adds the autoload when the plugin is enabled, not at every editor start.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const plugin = readFileSync(new URL('../../engines/godot/addons/itch_login/plugin.gd', import.meta.url), 'utf8');

/** The body of a top-level `func name(...)`, up to the next top-level line. */
function body(name: string): string | undefined {
  return new RegExp(`^func ${name}\\(\\)[^\\n]*:\\n((?:\\t[^\\n]*\\n|\\n)*)`, 'm').exec(plugin)?.[1];
}

describe('engines/godot plugin.gd', () => {
  it('adds the ItchLogin autoload in _enable_plugin and removes it in _disable_plugin', () => {
    assert.match(body('_enable_plugin') ?? '', /add_autoload_singleton\("ItchLogin", "res:\/\/addons\/itch_login\/itch_login\.gd"\)/);
    assert.match(body('_disable_plugin') ?? '', /remove_autoload_singleton\("ItchLogin"\)/);
  });

  it('touches no autoload in _enter_tree or _exit_tree, which run at every editor start and close', () => {
    for (const name of ['_enter_tree', '_exit_tree']) assert.doesNotMatch(body(name) ?? '', /autoload/, name);
  });
});
