// Keeps the README's code from drifting (run after `npm run build`):
// - a block marked `<!-- from FILE -->` on the line before its fence must appear in FILE, line by
//   line in this order (leading and trailing spaces aside; the examples' %ITCH_…% placeholders
//   read as the emulator's defaults); one marked `<!-- the whole of FILE -->` must also leave
//   none of FILE's lines out (blank lines aside), so a listing that says it is complete is;
// - every other `ts`, `tsx` and `js` block is type-checked with tsc against the built package, as a
//   module of its own; what a snippet leaves to the reader (`newSession`, `clientId`…) is declared
//   in scripts/readme-globals.d.ts;
// - markup blocks (`html`, `vue`, `svelte`, `tsx`: the framework snippets, adapted from the fixture
//   apps in test/frameworks/ that CI compiles) may use only the attributes and events that
//   custom-elements.json gives each tag, and only the capture's data- attributes;
// - `json` blocks must parse, and every path into the package must exist;
// - shell blocks (`sh`, no language, plain text) are for people to run: not checked;
// - every relative link leads to a file of the repository, and a `#fragment` into a Markdown file
//   to one of its headings (as GitHub makes their anchors);
// - a test cited as `file.spec.ts` › "its title…" (the security table) is a file under test/ that
//   has a test of that title (a trailing … stands for the rest of it).
// - in README.md and docs/guides/*.md, what a reader pastes must be what CI runs: every block but
//   commands and output (`sh`, `shell`, `bash`, `console`, `text`, no language) is marked, and
//   names a file under examples/, engines/ or test/ (the files `npm test` runs or compiles); a
//   block marked `from` there is one contiguous excerpt of it (blank lines aside), and a `js`, `ts`
//   or `tsx` one (or a whole file) uses no name it does not define or import (tsc's "Cannot find
//   name");
// It reads README.md, CONTRIBUTING.md, CHANGELOG.md and every docs/**/*.md but docs/reference/:
// that folder is generated from the sources (`npm run docs`) and checked against them by `npm run docs:check`; its `ts` blocks
// are declarations' signatures, not programs. Name files to check only those.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The Markdown files under `dir`, relative to the root, sorted. */
function markdownUnder(dir) {
  return readdirSync(path.join(root, dir))
    .flatMap((name) => {
      const file = path.posix.join(dir, name);
      if (statSync(path.join(root, file)).isDirectory()) return file === 'docs/reference' ? [] : markdownUnder(file);
      return name.endsWith('.md') ? [file] : [];
    })
    .sort();
}
const readmes = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...markdownUnder('docs')];
const work = path.join(root, '.readme-check');

/** How the examples' pages read once served with their default settings. */
const PLACEHOLDERS = {
  '%ITCH_CLIENT_ID%': 'emu-starfall-companion',
  '%ITCH_BASE_URL%': 'http://127.0.0.1:4824',
  '%ORIGIN%': 'http://127.0.0.1:3000',
};
const TYPE_CHECKED = { ts: 'ts', typescript: 'ts', tsx: 'tsx', js: 'js', javascript: 'js' };
// (toml: the itch app's manifest, configuration for people to copy; there is no TOML parser here.)
const UNCHECKED = new Set(['', 'sh', 'shell', 'bash', 'console', 'text', 'http', 'toml']);
const MARKUP = new Set(['html', 'vue', 'svelte', 'tsx']);
/** Blocks a reader pastes into a terminal, or a program's output: in the guides, the only ones not quoted. */
const COMMANDS = new Set(['', 'sh', 'shell', 'bash', 'console', 'text']);
/** Where a quoted file must live: what `npm test` runs or compiles. */
const RUN_BY_CI = /^(examples|engines|test)\//;
/** Blocks that say they are whole or quoted, and are type-checked for names they leave undefined. */
const NAME_CHECKED = { js: 'js', javascript: 'js', ts: 'ts', typescript: 'ts', tsx: 'tsx', jsx: 'jsx' };
/** tsc's "Cannot find name" errors (with or without a suggestion). */
const UNDEFINED_NAME = /^error TS(2304|2552|2582|2583|2591|2580):/;
const quotedOnly = (readme) => readme === 'README.md' || /^docs\/guides\/[^/]+\.md$/.test(readme);
const CAPTURE_ATTRIBUTES = new Set(['data-backend', 'data-no-redirect', 'data-pending', 'data-cross-origin']);
const GLOBAL_ATTRIBUTES = new Set(['id', 'class', 'style', 'slot', 'hidden', 'title', 'lang', 'dir', 'tabindex', 'part']);

/** Each tag's attribute and event names, from the Custom Elements Manifest of the build. */
function manifestNames() {
  const names = new Map();
  for (const module of JSON.parse(readFileSync(path.join(root, 'custom-elements.json'), 'utf8')).modules) {
    for (const declaration of module.declarations ?? []) {
      if (!declaration.tagName) continue;
      names.set(declaration.tagName, {
        attributes: new Set((declaration.attributes ?? []).map((attribute) => attribute.name)),
        events: new Set((declaration.events ?? []).map((event) => event.name)),
      });
    }
  }
  return names;
}

/**
 * The names a markup block gives our tags and the capture's script that the build does not know.
 * Framework spellings count as the name they bind: `:x`/`v-bind:x`, `@e`, `onE` (React, Svelte),
 * `[attr.x]`, `(e)` (Angular).
 */
function unknownNames(text, names) {
  const unknown = [];
  for (const [, tag, body] of text.matchAll(/<(itch-[a-z-]+|script)\b((?:[^>"'{}]|"[^"]*"|'[^']*'|\{(?:[^{}]|\{[^{}]*\})*\})*)>/g)) {
    const withoutValues = body.replace(/=\s*("[^"]*"|'[^']*'|\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})/g, ' ');
    const attributes = withoutValues.split(/\s+/).filter((name) => name && name !== '/');
    if (tag === 'script') {
      for (const name of attributes) if (name.startsWith('data-') && !CAPTURE_ATTRIBUTES.has(name)) unknown.push(`<script ${name}>`);
      continue;
    }
    const known = names.get(tag);
    if (!known) {
      unknown.push(`<${tag}>`);
      continue;
    }
    for (const written of attributes) {
      const name = written.replace(/^(?:v-bind:|:|\[attr\.)/, '').replace(/\]$/, '');
      const event = written.replace(/^(?:@|on(?=itch-)|\()/, '').replace(/\)$/, '');
      if (known.attributes.has(name) || GLOBAL_ATTRIBUTES.has(name) || (written !== event && known.events.has(event))) continue;
      unknown.push(`<${tag} ${written}>`);
    }
  }
  return unknown;
}

/** The fenced blocks of a Markdown file, with their language, first line number and marker. */
function blocks(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const end = lines.findIndex((line, j) => j > i && /^\s*```\s*$/.test(line));
    const before =
      lines
        .slice(0, i)
        .reverse()
        .find((line) => line.trim() !== '') ?? '';
    const marked = /^\s*<!-- (from|the whole of) (\S+) -->\s*$/.exec(before);
    found.push({
      file,
      line: i + 1,
      lang: open[2].toLowerCase(),
      from: marked?.[2],
      whole: marked?.[1] === 'the whole of',
      text: lines
        .slice(i + 1, end)
        .map((line) => line.slice(indent))
        .join('\n'),
    });
    i = end;
  }
  return found;
}

/** A line with the examples' placeholders read as the emulator's defaults. */
const fill = (line) => Object.entries(PLACEHOLDERS).reduce((text, [name, value]) => text.replaceAll(name, value), line);

/** Whether `block`'s lines are one run of `source`'s (blank lines aside on both sides). */
function contiguousIn(block, source) {
  const lines = (text) =>
    text
      .split('\n')
      .map((line) => fill(line.trim()))
      .filter(Boolean);
  const wanted = lines(block);
  const from = lines(source);
  for (let start = 0; start + wanted.length <= from.length; start++) if (wanted.every((line, i) => from[start + i] === line)) return true;
  return false;
}

/** The first line of `block` missing from `source` (in order), or undefined. */
function missingLine(block, source) {
  const raw = source.split('\n').map((line) => line.trim());
  const filled = raw.map(fill);
  let at = 0;
  for (const line of block
    .split('\n')
    .map((line) => fill(line.trim()))
    .filter(Boolean)) {
    let next = at;
    while (next < raw.length && raw[next] !== line && filled[next] !== line) next++;
    if (next === raw.length) return line;
    at = next + 1;
  }
  return undefined;
}

/** GitHub's anchor of a heading: lower case, formatting and punctuation dropped, spaces as dashes. */
function anchorOf(heading) {
  const text = heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, '$1');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks), with GitHub's -1, -2 for repeats. */
function anchors(file) {
  const seen = new Map();
  const found = new Set();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const anchor = anchorOf(heading[1]);
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    found.add(count ? `${anchor}-${count}` : anchor);
  }
  return found;
}

/** Relative links of a Markdown file (outside code blocks and inline code) that lead nowhere. */
function brokenLinks(readme) {
  const file = path.join(root, readme);
  const broken = [];
  let fenced = false;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (/^\s*```/.test(line)) fenced = !fenced;
      if (fenced) return;
      for (const [, target] of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [where, fragment] = target.split('#');
        const resolved = where ? path.resolve(path.dirname(file), decodeURI(where)) : file;
        if (!existsSync(resolved)) broken.push(`${readme}:${index + 1}: the link ${target} leads to no file`);
        else if (fragment && resolved.endsWith('.md') && !anchors(resolved).has(fragment))
          broken.push(`${readme}:${index + 1}: the link ${target}: no heading has the anchor #${fragment}`);
      }
    });
  return broken;
}

/** The test files under test/, by file name (a citation names the file alone). */
function testFiles(dir = 'test', found = new Map()) {
  for (const name of readdirSync(path.join(root, dir))) {
    const file = path.posix.join(dir, name);
    if (name === 'node_modules' || name === 'frameworks') continue;
    if (statSync(path.join(root, file)).isDirectory()) testFiles(file, found);
    else if (/\.(spec|test|measure)\.ts$/.test(name)) found.set(name, [...(found.get(name) ?? []), file]);
  }
  return found;
}

/** Cited tests that do not exist: `name.spec.ts` › "title", "title"… up to the next `;` or cell. */
function missingTests(readme, tests) {
  const missing = [];
  readFileSync(path.join(root, readme), 'utf8')
    .split('\n')
    .forEach((line, index) => {
      for (const [, name, titles] of line.matchAll(/`(?:[\w/-]*\/)?([\w.-]+\.(?:spec|test|measure)\.ts)`((?:\s*›[^;|]*)?)/g)) {
        const files = tests.get(name);
        if (!files) {
          missing.push(`${readme}:${index + 1}: cites ${name}, which is not a test file under test/`);
          continue;
        }
        const text = files.map((file) => readFileSync(path.join(root, file), 'utf8')).join('\n');
        for (const [, title] of titles.matchAll(/"([^"]+)"/g)) {
          const words = title.replace(/…/g, '').trim();
          if (!text.includes(words)) missing.push(`${readme}:${index + 1}: ${name} has no test titled "${title}"`);
        }
      }
    });
  return missing;
}

const problems = [];
const toCheck = [];
const excerpts = [];
const tests = testFiles();
const names = manifestNames();
for (const readme of readmes) {
  problems.push(...brokenLinks(readme), ...missingTests(readme, tests));
  for (const block of blocks(path.join(root, readme))) {
    const where = `${readme}:${block.line}`;
    if (quotedOnly(readme)) {
      if (!block.from && !COMMANDS.has(block.lang))
        problems.push(
          `${where}: a ${block.lang} block quoted from no file: mark it <!-- from FILE --> (or <!-- the whole of FILE -->) with a file CI runs`,
        );
      if (block.from && !RUN_BY_CI.test(block.from))
        problems.push(`${where}: quotes ${block.from}, which CI does not run (examples/, engines/, test/)`);
      if (
        block.from &&
        !block.whole &&
        existsSync(path.join(root, block.from)) &&
        !contiguousIn(block.text, readFileSync(path.join(root, block.from), 'utf8'))
      )
        problems.push(`${where}: a partial block is one contiguous excerpt of ${block.from}; this one skips lines of it`);
      if (block.from && NAME_CHECKED[block.lang]) excerpts.push({ ...block, where });
    }
    if (block.from) {
      const source = path.join(root, block.from);
      if (!existsSync(source)) problems.push(`${where}: marked from ${block.from}, which does not exist`);
      else {
        const text = readFileSync(source, 'utf8');
        const missing = missingLine(block.text, text);
        if (missing !== undefined) problems.push(`${where}: this line is not in ${block.from} (in this order):\n    ${missing}`);
        const left = block.whole ? missingLine(text, block.text) : undefined;
        if (left !== undefined) problems.push(`${where}: says it is the whole of ${block.from}, which also has:\n    ${left}`);
      }
    } else if (MARKUP.has(block.lang)) {
      const unknown = unknownNames(block.text, names);
      if (unknown.length) problems.push(`${where}: names the build does not know: ${unknown.join(', ')}`);
      if (!/<itch-|<script/.test(block.text)) problems.push(`${where}: a ${block.lang} block without our tags: mark where it comes from`);
    } else if (block.lang === 'json') {
      try {
        const paths = JSON.stringify(JSON.parse(block.text)).match(/\.\/node_modules\/itch-oauth-widget\/[^"]+/g) ?? [];
        for (const file of paths)
          if (!existsSync(path.join(root, file.replace('./node_modules/itch-oauth-widget/', ''))))
            problems.push(`${where}: ${file} is not in the package`);
      } catch (error) {
        problems.push(`${where}: not JSON: ${error.message}`);
      }
    } else if (TYPE_CHECKED[block.lang]) toCheck.push({ ...block, where });
    else if (!UNCHECKED.has(block.lang))
      problems.push(`${where}: a ${block.lang} block must say where it comes from (<!-- from FILE --> on the line before)`);
  }
}

for (const excerpt of excerpts)
  toCheck.push({ ...excerpt, lang: NAME_CHECKED[excerpt.lang] === 'jsx' ? 'tsx' : excerpt.lang, namesOnly: true });

/**
 * Type-checks `blocks` with tsc as modules of their own, in `dir`, beside the declarations
 * `globals` (a .d.ts file); of a block marked `namesOnly`, reports only the names it leaves undefined.
 */
function typeCheck(blocks, dir, globals) {
  if (!blocks.length) return;
  mkdirSync(dir, { recursive: true });
  const files = blocks.map((block, index) => {
    const name = `block-${String(index).padStart(2, '0')}-line-${block.line}.${TYPE_CHECKED[block.lang]}`;
    writeFileSync(path.join(dir, name), `${block.text}\nexport {};\n`);
    return { name, where: block.where, namesOnly: block.namesOnly };
  });
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        lib: ['es2023', 'dom', 'dom.iterable'],
        types: ['node'],
        typeRoots: [path.join(root, 'node_modules', '@types')],
        jsx: 'preserve',
        allowJs: true,
        checkJs: true,
        skipLibCheck: true,
        // Snippets show a call or two, not a whole program: values computed and not used are fine.
        noUnusedLocals: false,
      },
      files: [globals, ...files.map((file) => file.name)],
    }),
  );
  const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir, '--pretty', 'false'], {
    encoding: 'utf8',
  });
  let reported = 0;
  for (const match of `${tsc.stdout}${tsc.stderr}`.matchAll(/^(?:.*[\\/])?(block-\d+-line-\d+\.\w+)\((\d+),\d+\): (error .*)$/gm)) {
    reported++;
    const file = files.find((candidate) => candidate.name === match[1]);
    if (file.namesOnly && !UNDEFINED_NAME.test(match[3])) continue;
    const line = Number(file.where.split(':').pop()) + Number(match[2]);
    problems.push(`${file.where.replace(/:\d+$/, `:${line}`)}: ${match[3]}`);
  }
  if (tsc.status !== 0 && !reported) problems.push(`tsc failed:\n${tsc.stdout}${tsc.stderr}`);
}

rmSync(work, { recursive: true, force: true });
// What a snippet leaves to the reader is declared for the snippets (scripts/readme-globals.d.ts);
// a quoted excerpt gets nothing but what its page has without it: the script-tag file's global.
typeCheck(
  toCheck.filter((block) => !block.namesOnly),
  path.join(work, 'snippets'),
  path.join(root, 'scripts', 'readme-globals.d.ts'),
);
mkdirSync(path.join(work, 'quoted'), { recursive: true });
writeFileSync(path.join(work, 'quoted', 'script-tag.d.ts'), "declare const ItchOAuth: typeof import('itch-oauth-widget');\n");
typeCheck(
  toCheck.filter((block) => block.namesOnly),
  path.join(work, 'quoted'),
  path.join(work, 'quoted', 'script-tag.d.ts'),
);
if (!problems.length) rmSync(work, { recursive: true, force: true });

const count = toCheck.filter((block) => !block.namesOnly).length;
if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} problem(s) in the code blocks and links of ${readmes.length} Markdown file(s)`);
  process.exitCode = 1;
} else {
  console.log(
    `${readmes.length} Markdown files ok (README.md, CONTRIBUTING.md, CHANGELOG.md, docs/): ${count} code blocks type-checked; the others found in the files they come from, or their names in the manifest; every relative link leads somewhere`,
  );
}
