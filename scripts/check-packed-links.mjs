// Every relative link of the packed README and of every Markdown file the tarball ships leads to a
// file inside the tarball (and, with a #fragment, to a heading of it): what a user opens from
// node_modules/itch-oauth-widget, or wherever the package's README is shown, has no dead link.
// Packs the current build (scripts/pack.mjs; `npm run build` first), reads the tarball itself.
// `node scripts/check-packed-links.mjs [tarball]` checks that tarball instead.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pack } from './pack.mjs';

/**
 * GitHub's anchor of a heading: lower case, formatting and punctuation dropped, spaces as dashes;
 * a backslash-escaped character is that character (`DEFAULT\_TIMEOUT` → `default_timeout`).
 */
function anchorOf(heading) {
  const text = heading
    .replace(/\\_/g, '\uE000')
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, '$1')
    .replace(/\uE000/g, '_');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Lines of a Markdown text outside fenced code blocks (`raw`; `line` without inline code), and their numbers. */
function proseLines(text) {
  const lines = [];
  let fenced = false;
  text.split('\n').forEach((raw, index) => {
    if (/^\s*(```|~~~)/.test(raw)) fenced = !fenced;
    else if (!fenced) lines.push({ raw, line: raw.replace(/`[^`]*`/g, ''), number: index + 1 });
  });
  return lines;
}

/**
 * The anchors of a Markdown text: its headings' (GitHub's, with -1, -2 for repeats) and the `id`
 * or `name` of its HTML anchors (`<a id="…"></a>`, as TypeDoc writes them).
 */
function anchors(text) {
  const seen = new Map();
  const found = new Set();
  for (const { raw, line } of proseLines(text)) {
    for (const [, id] of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(id);
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
    if (!heading) continue;
    const anchor = anchorOf(heading[1]);
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    found.add(count ? `${anchor}-${count}` : anchor);
  }
  return found;
}

/**
 * The relative links of `file` (a path inside the package) that lead to nothing in `files`, the
 * tarball's paths; `read(file)` gives a packed file's text.
 * @returns one line per broken link, `file:line: why`
 */
export function brokenLinks(file, files, read) {
  const broken = [];
  const isDirectory = (target) => [...files].some((packed) => packed.startsWith(`${target}/`));
  for (const { line, number } of proseLines(read(file))) {
    // Inline links and images, `[text](target "title")` and `![alt](target)`.
    for (const [, target] of line.matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      const [where, fragment] = target.split('#');
      const resolved = where ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(where))).replace(/\/$/, '') : file;
      if (resolved === '..' || resolved.startsWith('../') || path.posix.isAbsolute(resolved))
        broken.push(`${file}:${number}: the link ${target} leads out of the package`);
      else if (!files.has(resolved) && !isDirectory(resolved))
        broken.push(`${file}:${number}: the link ${target} leads to no file of the package`);
      else if (fragment && resolved.endsWith('.md') && !anchors(read(resolved)).has(fragment))
        broken.push(`${file}:${number}: the link ${target}: no heading of ${resolved} has the anchor #${fragment}`);
    }
  }
  return broken;
}

/**
 * The generated API reference (TypeDoc): a link to a file there must resolve, but its anchors are
 * TypeDoc's own (it numbers a name that is both a type and a value), reported without failing.
 */
const GENERATED = /^docs\/reference\//;

/** The tarball's files (paths inside the package) and its Markdown files' broken links. */
export function checkTarball(tarball) {
  const listed = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`tar could not list ${tarball}:\n${listed.stderr}`);
  const files = new Set(
    listed.stdout
      .split('\n')
      .filter((entry) => entry && !entry.endsWith('/'))
      .map((entry) => entry.replace(/^package\//, '')),
  );
  const work = mkdtempSync(path.join(tmpdir(), 'itch-packed-links-'));
  try {
    const extracted = spawnSync('tar', ['-xzf', tarball, '-C', work]);
    if (extracted.status !== 0) throw new Error(`tar could not extract ${tarball}:\n${extracted.stderr}`);
    const read = (file) => readFileSync(path.join(work, 'package', file), 'utf8');
    const markdown = [...files].filter((file) => file.endsWith('.md')).sort();
    const found = markdown.flatMap((file) => brokenLinks(file, files, read));
    const generatedAnchor = (line) => GENERATED.test(line) && / has the anchor #/.test(line);
    return { files, markdown, broken: found.filter((line) => !generatedAnchor(line)), warnings: found.filter(generatedAnchor) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const tarball = process.argv[2] ?? pack();
  const { files, markdown, broken, warnings } = checkTarball(tarball);
  if (warnings.length > 0)
    console.warn(`Anchors of the generated API reference that TypeDoc left without a target:\n${warnings.join('\n')}`);
  if (!files.has('README.md')) broken.push('README.md is not in the package');
  if (broken.length > 0) {
    console.error(`${broken.length} broken link(s) in ${path.basename(tarball)}:\n${broken.join('\n')}`);
    process.exit(1);
  }
  console.log(`${path.basename(tarball)}: every relative link of its ${markdown.length} Markdown files leads inside it`);
}
