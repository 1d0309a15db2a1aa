// What itch-oauth-widget/cloudflare's store costs: the Durable Object requests (and the rows
// their storage reads) of each step of a login, an API call and what anyone can send, and the
// rows its alarm reads to expire 1,000 entries with distinct expiries (a wake each). In process,
// on test/cloudflare/support's stand-ins; printed as markdown tables (for bench/results.md).
// Run: npx tsx bench/durable-object-store.ts [--old DIR] [--write]  (DIR: another version's src/,
// e.g. main's from `mkdir -p /tmp/main && git archive main src | tar -x -C /tmp/main`, with a
// node_modules link there, then --old /tmp/main/src; --write puts the tables in
// bench/durable-object-store.md)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startEmulator } from '../src/emulator/index.js';
import { memoryNamespace, type StoreClass } from '../test/cloudflare/support/durable-objects.js';
import { countLoginFlows, type Cost, type Modules } from '../test/cloudflare/support/login-flows.js';

const { values } = parseArgs({ options: { old: { type: 'string' }, write: { type: 'boolean' } } });
const sources = { ...(values.old === undefined ? {} : { before: path.resolve(values.old) }), now: path.resolve('src') };

async function modulesOf(source: string): Promise<Modules> {
  return {
    ...(await import(path.join(source, 'cloudflare/index.ts'))),
    ...(await import(path.join(source, 'server/index.ts'))),
  } as Modules;
}

/** Rows read by the alarm's wakes while 1,000 entries with distinct expiries expire, a wake each. */
async function expiryRows(Store: StoreClass): Promise<{ wakes: number; rowsRead: number; left: number }> {
  const realNow = Date.now;
  let clock = realNow();
  Date.now = () => clock;
  try {
    const namespace = memoryNamespace(Store);
    const object = namespace.get(namespace.idFromName('one') as never);
    for (let i = 0; i < 1000; i++)
      await object.fetch('https://itch-oauth-store/', {
        method: 'POST',
        body: JSON.stringify({ op: 'set', key: `k${i}`, value: i, ttl: 1 + i / 1000 }),
      });
    const { storage } = namespace.objects.get('one')!;
    const before = storage.rowsRead;
    let wakes = 0;
    while (storage.alarm !== null) {
      clock = Math.max(clock, storage.alarm);
      wakes += await namespace.runAlarms(clock);
    }
    return { wakes, rowsRead: storage.rowsRead - before, left: storage.keys().length };
  } finally {
    Date.now = realNow;
  }
}

const emulator = await startEmulator();
const flows: Record<string, Map<string, Cost>> = {};
const expiry: Record<string, Awaited<ReturnType<typeof expiryRows>>> = {};
for (const [label, source] of Object.entries(sources)) {
  const modules = await modulesOf(source);
  flows[label] = await countLoginFlows(modules, emulator);
  expiry[label] = await expiryRows(modules.ItchOAuthStore as StoreClass);
}
await emulator.close();

const labels = Object.keys(sources);
const cell = (cost: Cost | undefined) => (cost === undefined ? '–' : `${cost.requests} (${cost.rowsRead})`);
const lines = [
  '### Durable Object requests per step (and rows their storage read)',
  '',
  `| step | ${labels.map((label) => `${label}: requests (rows read)`).join(' | ')} |`,
  `|---|${labels.map(() => '---:').join('|')}|`,
  ...[...flows['now']!.keys()].map((name) => `| ${name} | ${labels.map((label) => cell(flows[label]!.get(name))).join(' | ')} |`),
  '',
  '### Expiring 1,000 entries with distinct expiries (the alarm run at each expiry)',
  '',
  `| | ${labels.join(' | ')} |`,
  `|---|${labels.map(() => '---:').join('|')}|`,
  ...(['wakes', 'rowsRead', 'left'] as const).map(
    (key) =>
      `| ${{ wakes: 'alarm wakes', rowsRead: 'rows read by the alarm', left: 'keys left after' }[key]} | ${labels.map((label) => expiry[label]![key].toLocaleString('en')).join(' | ')} |`,
  ),
];
console.log(lines.join('\n'));
if (values.write) {
  const intro = [
    '# The Workers store',
    '',
    `Written by \`npx tsx bench/durable-object-store.ts${values.old === undefined ? '' : " --old <main's src/>"} --write\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}: in process, on the stand-ins of test/cloudflare/support (a code binding's slots and the objects reached depend on the random state: one or two requests).`,
    '',
  ];
  writeFileSync(fileURLToPath(new URL('./durable-object-store.md', import.meta.url)), `${[...intro, ...lines].join('\n')}\n`);
}
