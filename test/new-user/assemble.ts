// A project as a new user builds it: only from the files the guides quote whole
// (`<!-- the whole of examples/NAME/PATH -->` before a fenced block), written out under a fresh
// folder of examples/.new-user/, whose parent's node_modules holds the packed package (`npm run
// examples:install` installs the tarball of scripts/pack.mjs there), as examples/vite-spa finds it.
// Nothing is copied from examples/: a file the guides leave out is missing here, and the project
// fails as the user's would.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every block the guide quotes whole, by the path it names (relative to the repository). */
export function wholeFiles(guide: string): Map<string, string> {
  const lines = readFileSync(path.join(root, guide), 'utf8').split('\n');
  const found = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```\w*\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && /^\s*```\s*$/.test(line));
    const before = lines
      .slice(0, i)
      .reverse()
      .find((line) => line.trim() !== '');
    const marked = before && /^\s*<!-- the whole of (\S+) -->\s*$/.exec(before);
    if (marked)
      found.set(
        marked[1]!,
        `${lines
          .slice(i + 1, end)
          .map((line) => line.slice(open[1]!.length))
          .join('\n')}\n`,
      );
    i = end;
  }
  return found;
}

export interface Recipe {
  /** The guides the user reads, in order. */
  guides: string[];
  /** Each file of the project, and the file the guides quote for it (e.g. `public/index.html` ← `examples/static-node/public/index.html`). */
  files: Record<string, string>;
}

export interface Assembled {
  dir: string;
  /** The files the guides did not give. */
  missing: string[];
  /** Lines of each file, blank and comment-only lines aside. */
  lines: Record<string, number>;
}

/** Lines of code: blank lines and lines that are only a comment left out. */
function codeLines(text: string): number {
  return text.split('\n').filter((line) => {
    const bare = line.trim();
    return bare !== '' && !/^(\/\/|\/\*|\*|<!--.*-->$|#)/.test(bare);
  }).length;
}

/**
 * The project `name` in examples/.new-user/. The guides' fixed addresses (the site on
 * http://127.0.0.1:3000, the emulator on http://127.0.0.1:4824) are moved to `moved`'s, as a user
 * whose ports are taken edits them.
 */
export function assemble(name: string, recipe: Recipe, moved: { site: string; game: string; itch: string }): Assembled {
  const quoted = new Map<string, string>();
  for (const guide of recipe.guides) for (const [file, text] of wholeFiles(guide)) quoted.set(file, text);
  const dir = path.join(root, 'examples', '.new-user', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const missing: string[] = [];
  const lines: Record<string, number> = {};
  for (const [file, from] of Object.entries(recipe.files)) {
    const text = quoted.get(from);
    if (text === undefined) {
      missing.push(`${file} (the guides quote no whole ${from})`);
      continue;
    }
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(
      path.join(dir, file),
      text
        .replaceAll('http://127.0.0.1:3000', moved.site)
        .replaceAll('http://localhost:3000', moved.game)
        .replaceAll('http://127.0.0.1:4824', moved.itch),
    );
    lines[file] = codeLines(text);
  }
  // `npm init -y && npm pkg set type=module && npm install itch-oauth-widget …`, as every guide begins.
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: `new-user-${name}`, private: true, type: 'module' }, null, 2)}\n`,
  );
  return { dir, missing, lines };
}
