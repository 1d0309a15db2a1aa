// Copies the widget's script files (and the languages the full one loads from beside itself)
// from the installed package into public/, where Workers static assets serve them: the Worker's
// own bundle then carries none of them (a Worker is billed and cold-started by its size).
// wrangler.jsonc runs this before `wrangler dev` and `wrangler deploy` (its "build" command).
import { cpSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const dist = path.join(path.dirname(createRequire(import.meta.url).resolve('itch-oauth-widget/package.json')), 'dist');
const publicDir = new URL('./public/', import.meta.url).pathname;
mkdirSync(publicDir, { recursive: true });
for (const file of ['itch-oauth.iife.js', 'itch-oauth-capture.iife.js', 'locales']) {
  cpSync(path.join(dist, file), path.join(publicDir, file), { recursive: true });
}
