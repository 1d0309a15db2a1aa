// The server figure of this tree beside an older one's (default `main`), in the same run: the
// token handler's logins through the emulator, as bench/server.ts measures them, the two trees
// taking turns (BENCH_ROUNDS rounds, default 5, of BENCH_LOGINS logins each, default 3,000, after
// 300 unrecorded ones). This tree runs with the per-client rate limits on (every login from an
// address of its own, as 3,000 players who log in once) and the ceiling of calls to itch.io
// raised above what the bench asks. Medians over the rounds; the table goes to stdout and into
// bench/results.md, between its server-compare marks.
//   BENCH_BASELINE=<git ref> npx tsx bench/server-compare.ts
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { measureServer, type ServerFigures } from './server.js';
import { root } from './sizes.js';
import { median, quantile } from './stats.js';

const BASELINE = process.env['BENCH_BASELINE'] ?? 'main';
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const LOGINS = Number(process.env['BENCH_LOGINS'] ?? 3000);
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

// The older tree's sources, beside this one's node_modules (bench/.baseline/ is not committed).
const commit = execSync(`git rev-parse --short ${BASELINE}`, { cwd: root }).toString().trim();
const baseline = `${root}bench/.baseline/${commit}/`;
if (!existsSync(`${baseline}src/server/index.ts`)) {
  mkdirSync(baseline, { recursive: true });
  execSync(`git archive ${commit} src | tar -x -C ${baseline}`, { cwd: root });
}

const runs: Record<'before' | 'after', ServerFigures[]> = { before: [], after: [] };
const work = { warmup: 300, logins: LOGINS, concurrency: 64, idleMs: 1000 };
for (let round = 0; round < ROUNDS; round++) {
  // Which goes first alternates: neither always gets the cooler machine.
  const order = round % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const);
  for (const tree of order) {
    log(`round ${round + 1}/${ROUNDS}: ${tree === 'before' ? `${BASELINE} (${commit})` : 'this tree, rate limits on'}`);
    runs[tree].push(
      await measureServer(tree === 'before' ? { ...work, module: `${baseline}src/server/index.ts` } : { ...work, clientAddresses: true }),
    );
  }
}

const row = (what: string, figures: ServerFigures[]) => {
  const rates = figures.map((f) => f.logins / f.seconds);
  const cpu = figures.map((f) => f.cpuMicros / f.logins);
  const p = (q: number) => median(figures.map((f) => quantile(f.latenciesMs, q)));
  const failed = figures.reduce((sum, f) => sum + f.failures, 0);
  return {
    rate: median(rates),
    line:
      `| ${what} | ${Math.round(median(rates))} (${rates.map(Math.round).join(', ')}) | ` +
      `${Math.round(median(cpu))} µs (${cpu.map(Math.round).join(', ')}) | ${p(0.5).toFixed(0)} ms | ${p(0.99).toFixed(0)} ms | ${failed} |`,
  };
};
/** This tree's figure over the older one's in each round (the two measured back to back), median over the rounds. */
const paired = (of: (f: ServerFigures) => number) => median(runs.after.map((f, i) => of(f) / of(runs.before[i]!)));
const before = row(`\`${BASELINE}\` (${commit}): no limits`, runs.before);
const after = row('this tree: per-client limits on, 1 address per login, itch.io ceiling 100,000/s', runs.after);
const lines = [
  `Measured ${new Date().toISOString().slice(0, 10)} by \`npx tsx bench/server-compare.ts\` on ${cpus()[0]?.model.trim()} (${cpus().length} cores), Node ${process.version}: ` +
    `createTokenHandler → emulator in another process, 64 concurrent logins, a hand-written cookie; ${ROUNDS} rounds of ${LOGINS.toLocaleString('en-US')} logins, the two trees taking turns; medians over the rounds (each round's figure in brackets).`,
  '',
  '| server | logins/s | server CPU per login | p50 | p99 | failed |',
  '|---|---:|---:|---:|---:|---:|',
  before.line,
  after.line,
  '',
  `This tree against \`${BASELINE}\`, round by round (medians of the ratios): logins/s ${(paired((f) => f.logins / f.seconds) * 100).toFixed(1)} %, ` +
    `server CPU per login ${(paired((f) => f.cpuMicros / f.logins) * 100).toFixed(1)} %.`,
];
const table = lines.join('\n');
process.stdout.write(`${table}\n`);

const results = `${root}bench/results.md`;
const START = '<!-- server-compare -->';
const END = '<!-- /server-compare -->';
const section = `${START}\n### Server, before and after the rate limits\n\n${table}\n${END}`;
const text = readFileSync(results, 'utf8');
writeFileSync(
  results,
  text.includes(START) ? text.replace(new RegExp(`${START}[\\s\\S]*${END}`), section) : `${text.trimEnd()}\n\n${section}\n`,
);
