// The import graph of one folder of src/ (default src/server), from the files' own relative
// imports (type imports included): `node scripts/import-graph.mjs [folder]`.
//
// Prints the parts (each subfolder, and each loose file) with the arrows between them, then the
// counts: files, arrows between files, arrows between parts, and circles (files, or parts, that
// import each other in a loop). A layout by job has no circle between parts: every arrow then
// runs down, from the part that uses to the part it uses.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? 'src/server');

/** Every .ts file under `dir`. */
function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** The files of this folder that `file` imports (relative specifiers, `.js` written for `.ts`). */
function importsOf(file, known) {
  const text = readFileSync(file, 'utf8');
  const targets = new Set();
  for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = path.resolve(path.dirname(file), match[1].replace(/\.js$/, '.ts'));
    if (known.has(target) && target !== file) targets.add(target);
  }
  return targets;
}

/** The part a file belongs to: its subfolder of `root`, or the file itself when it is loose. */
function partOf(file) {
  const [first, ...rest] = path.relative(root, file).split(path.sep);
  return rest.length > 0 ? `${first}/` : first;
}

/** Tarjan's strongly connected components with more than one member: the circles. */
function circles(nodes, edges) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

const files = filesUnder(root).sort();
const known = new Set(files);
const fileEdges = new Map(files.map((file) => [file, importsOf(file, known)]));
const partEdges = new Map();
for (const [from, targets] of fileEdges) {
  for (const to of targets) {
    if (partOf(from) === partOf(to)) continue;
    const key = `${partOf(from)} -> ${partOf(to)}`;
    partEdges.set(key, (partEdges.get(key) ?? 0) + 1);
  }
}
const parts = [...new Set(files.map(partOf))].sort();
const partGraph = new Map(parts.map((part) => [part, new Set()]));
for (const key of partEdges.keys()) {
  const [from, to] = key.split(' -> ');
  partGraph.get(from).add(to);
}
const relative = (file) => path.relative(process.cwd(), file);
const fileCircles = circles(files, fileEdges);
const partCircles = circles(parts, partGraph);

console.log(`${relative(root)}: parts and the arrows between them (number of imports)`);
for (const part of parts) {
  const count = files.filter((file) => partOf(file) === part).length;
  const out = [...partEdges].filter(([key]) => key.startsWith(`${part} -> `)).map(([key, n]) => `${key.split(' -> ')[1]} (${n})`);
  console.log(`  ${part}${count > 1 ? ` [${count} files]` : ''}${out.length > 0 ? ` -> ${out.join(', ')}` : ''}`);
}
console.log(`files: ${files.length}`);
console.log(`arrows between files: ${[...fileEdges.values()].reduce((sum, targets) => sum + targets.size, 0)}`);
console.log(`arrows between parts: ${partEdges.size}`);
console.log(`circles between files: ${fileCircles.length}${fileCircles.map((c) => `\n  ${c.map(relative).join(', ')}`).join('')}`);
const inCircle = (key) => {
  const [from, to] = key.split(' -> ');
  return partCircles.some((circle) => circle.includes(from) && circle.includes(to));
};
console.log(`arrows between parts that close a circle: ${[...partEdges.keys()].filter(inCircle).length}`);
console.log(`circles between parts: ${partCircles.length}${partCircles.map((c) => `\n  ${c.join(', ')}`).join('')}`);
