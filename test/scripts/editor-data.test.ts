// The VS Code settings the frameworks guide quotes (test/frameworks/.vscode/settings.json, beside the
// fixture apps' node_modules where npm run test:frameworks installs the packed package): each path
// is a file the package ships, and each holds the custom data that gives the editor our tags,
// their attributes and the button's CSS properties. Run after npm run build.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const settings = JSON.parse(readFileSync(`${root}test/frameworks/.vscode/settings.json`, 'utf8')) as Record<string, string[]>;
const shipped = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { files: string[] }).files;

/** The file of the package that `./node_modules/itch-oauth-widget/…` names, checked to be one `files` ships. */
function packageFile(setting: string): string {
  const inPackage = /^\.\/node_modules\/itch-oauth-widget\/(.+)$/.exec(setting)?.[1];
  assert.ok(inPackage, `${setting} is not a path into the package`);
  assert.ok(
    shipped.some((entry) => inPackage === entry || inPackage.startsWith(`${entry}/`)),
    `${inPackage} is not under package.json files`,
  );
  assert.ok(existsSync(`${root}${inPackage}`), `${inPackage} is not built`);
  return readFileSync(`${root}${inPackage}`, 'utf8');
}

describe('VS Code custom data from the guide', () => {
  it('html.customData gives both tags and the button’s attributes', () => {
    assert.equal(settings['html.customData']?.length, 1);
    const data = JSON.parse(packageFile(settings['html.customData']![0]!)) as { tags: { name: string; attributes: { name: string }[] }[] };
    const tags = new Map(data.tags.map((tag) => [tag.name, tag.attributes.map((attribute) => attribute.name)]));
    assert.deepEqual([...tags.keys()].sort(), ['itch-login-button', 'itch-oauth-callback']);
    for (const name of ['client-id', 'redirect-uri', 'backend', 'mode']) assert.ok(tags.get('itch-login-button')!.includes(name), name);
  });

  it('css.customData gives the button’s custom properties', () => {
    assert.equal(settings['css.customData']?.length, 1);
    const data = JSON.parse(packageFile(settings['css.customData']![0]!)) as { properties: { name: string }[] };
    assert.ok(data.properties.some((property) => property.name === '--itch-login-background'));
  });
});
