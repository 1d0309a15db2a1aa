// `npm run bench`: everything measured in one run on this machine, and printed as a markdown
// table that also goes to bench/results.md. Not part of `npm test`: timings are noisy.
//
// BENCH_RUNS (default 30) runs of each browser measurement, the contenders interleaved (their
// order rotates every round), medians and 90th percentiles; then the server figures
// (BENCH_LOGINS logins, default 10,000, after 500 unrecorded ones), once with a hand-written
// cookie and once with createSessions; then createSessions' reads and logins on one core
// (BENCH_SECONDS each, default 2), beside a Map lookup.
// Progress goes to stderr, the table to stdout.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buttonRun, callbackRun, launch, type ButtonRun, type CallbackRun } from './browser.js';
import { IDLE_MS, measureServer } from './server.js';
import { measureSessions } from './sessions.js';
import { BUTTON_PAGES, CALLBACKS, LATER_SCRIPTS, startSite, type ButtonPage, type Callback } from './site.js';
import { measureSizes, root } from './sizes.js';
import { median, ms, quantile } from './stats.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 30);
const HOLD_MS = 1000;
const SERVER = { warmup: 500, logins: Number(process.env['BENCH_LOGINS'] ?? 10_000), concurrency: 64 };
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const started = Date.now();

// 1. Our files as `npm run build` makes them.
if (!['dist/index.js', 'dist/itch-oauth.iife.js', 'dist/itch-oauth-capture.iife.js'].every((f) => existsSync(root + f))) {
  log('dist/ is missing: npm run build');
  execSync('npm run build', { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
}
const { ITCH_LOGIN_BUTTON_PREUPGRADE_CSS } = (await import(`${root}dist/index.js`)) as { ITCH_LOGIN_BUTTON_PREUPGRADE_CSS: string };

log('sizes: building each contender');
const sizes = await measureSizes();

// 2. The browser: every round runs each callback page and each button page once.
const site = await startSite({ assets: sizes.assets, preupgradeCss: ITCH_LOGIN_BUTTON_PREUPGRADE_CSS, holdMs: HOLD_MS });
const browser = await launch();
const chromiumVersion = browser.version();
const callbacks = Object.keys(CALLBACKS) as Callback[];
const callbackRuns = Object.fromEntries(callbacks.map((c) => [c, [] as CallbackRun[]])) as Record<Callback, CallbackRun[]>;
const buttonRuns = Object.fromEntries(BUTTON_PAGES.map((b) => [b, [] as ButtonRun[]])) as Record<ButtonPage, ButtonRun[]>;
type Job = { kind: 'callback'; name: Callback } | { kind: 'button'; name: ButtonPage };
const jobs: Job[] = [
  ...callbacks.map((name) => ({ kind: 'callback', name }) as const),
  ...BUTTON_PAGES.map((name) => ({ kind: 'button', name }) as const),
];
try {
  // One unrecorded round first: the first page Chromium loads is always slower.
  for (const job of jobs) {
    if (job.kind === 'callback') await callbackRun(browser, site, job.name);
    else await buttonRun(browser, site, job.name);
  }
  for (let round = 0; round < RUNS; round++) {
    log(`browser: round ${round + 1}/${RUNS} (${Math.round((Date.now() - started) / 1000)} s)`);
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[(i + round) % jobs.length]!;
      if (job.kind === 'callback') callbackRuns[job.name].push(await callbackRun(browser, site, job.name));
      else buttonRuns[job.name].push(await buttonRun(browser, site, job.name));
    }
  }
} finally {
  await browser.close();
  await site.close();
}

// 3. The server.
log(`server: ${SERVER.warmup} warm-up logins, then ${SERVER.logins} at ${SERVER.concurrency} concurrent`);
// With the per-client rate limits on: each login from an address of its own (see server-load.ts).
const server = await measureServer({ ...SERVER, clientAddresses: true });
log(`server: the same with createSessions' onLogin`);
const serverSessions = await measureServer({ ...SERVER, sessions: true, clientAddresses: true });

// 4. createSessions alone, in this process (the browser and the emulator are closed by now).
log('sessions: reads and logins, one at a time');
const sessionFigures = await measureSessions();

// 5. The table.
const problems: string[] = [];
const MiB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;
const num = (n: number) => n.toLocaleString('en-US');
const cpu = cpus();
const lines: string[] = [];
const date = new Date().toISOString().slice(0, 10);
lines.push(
  `Measured ${date} by \`npm run bench\` on ${cpu[0]?.model.trim()} (${cpu.length} cores), Node ${process.version}, Chromium ${chromiumVersion}; ` +
    `${RUNS} runs of each browser measurement, interleaved; medians (p90). Pages on 127.0.0.1, every script loaded cold (no-store).`,
  '',
  '### Sizes (minified, gzip -9 of the content)',
  '',
  '| what | minified | gzip -9 | |',
  '|---|---:|---:|---|',
  ...sizes.rows.map((r) => `| ${r.what} | ${num(r.bytes)} B | ${num(r.gzip)} B | ${r.note} |`),
);

const NAMES: Record<Callback, string> = {
  capture: 'ours: capture file',
  full: 'ours: full file',
  hello: 'hellojs (page mode)',
  floor: 'floor (hand-written)',
};
const floorLatency = median(callbackRuns.floor.map((r) => r.latencyMs!));
const defined = <T>(values: (T | undefined)[]) => values.filter((v): v is T => v !== undefined);
lines.push(
  '',
  `### Callback (the backend answers the POST after ${HOLD_MS / 1000} s)`,
  '',
  '| callback page | navigation start → POST received | ratio to floor | response start → first paint | response start → fragment cleared | later scripts run in the token document | token left in storage |',
  '|---|---:|---:|---:|---:|---:|---|',
);
for (const c of callbacks) {
  const runs = callbackRuns[c];
  const latency = runs.map((r) => r.latencyMs!);
  const feedback = defined(runs.map((r) => r.feedbackMs));
  const cleared = defined(runs.map((r) => r.clearedMs));
  const later = runs.map((r) => r.laterScripts);
  const partly = (values: unknown[]) => (values.length < runs.length ? ` in ${values.length}/${runs.length} runs` : '');
  const paintCell = feedback.length === 0 ? `no paint (0/${runs.length})` : `${ms(feedback, 0)}${partly(feedback)}`;
  const clearedCell = cleared.length === 0 ? 'never' : `${ms(cleared, 0)}${partly(cleared)}`;
  const laterCell = `${median(later)} of ${LATER_SCRIPTS.length} (max ${Math.max(...later)})`;
  const stored = runs.filter((r) => r.tokenStored).length;
  lines.push(
    `| ${NAMES[c]} | ${ms(latency, 0)} | ${(median(latency) / floorLatency).toFixed(2)} | ${paintCell} | ${clearedCell} | ${laterCell} | ${stored === 0 ? 'no' : `yes (${stored}/${runs.length})`} |`,
  );
  if ((c === 'capture' || c === 'full') && Math.max(...later) > 0) problems.push(`${NAMES[c]}: a later script ran in the token document`);
  if (runs.some((r) => r.posts !== 1)) problems.push(`${NAMES[c]}: the backend did not get exactly one POST in every run`);
}

const BUTTONS: Record<ButtonPage, string> = {
  head: 'script tag in <head> (dist/itch-oauth.iife.js)',
  'module-css': 'late module import, with the pre-upgrade CSS',
  'module-no-css': 'late module import, without it (control)',
};
lines.push(
  '',
  '### Button',
  '',
  '| page | script load start → interactive button | layout shift of the upgrade (CLS) |',
  '|---|---:|---:|',
);
for (const b of BUTTON_PAGES) {
  const runs = buttonRuns[b];
  const cls = runs.map((r) => r.cls);
  lines.push(
    `| ${BUTTONS[b].replace('<head>', '`<head>`')} | ${ms(
      runs.map((r) => r.readyMs),
      0,
    )} | ${median(cls).toFixed(4)} (max ${Math.max(...cls).toFixed(4)}) |`,
  );
  if (b !== 'module-no-css' && Math.max(...cls) > 0) problems.push(`button, ${BUTTONS[b]}: layout shift ${Math.max(...cls)}`);
  if (runs.some((r) => !r.interactive)) problems.push(`button, ${BUTTONS[b]}: not rendered when upgraded`);
}

lines.push(
  '',
  `### Server (createTokenHandler → emulator in another process, ${server.concurrency} concurrent logins)`,
  '',
  `| onLogin | logins/s | p50 | p99 | failed | heapUsed after gc: before | after ${num(SERVER.logins / 2)} logins | after ${num(SERVER.logins)} | then ${IDLE_MS / 1000} s idle |`,
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
);
for (const [what, figures] of [
  ['a hand-written cookie', server],
  ["createSessions' (encrypted cookie)", serverSessions],
] as const) {
  lines.push(
    `| ${what} | ${Math.round(figures.logins / figures.seconds)} | ${median(figures.latenciesMs).toFixed(0)} ms | ${quantile(figures.latenciesMs, 0.99).toFixed(0)} ms | ${figures.failures} | ${MiB(figures.heapBefore)} | ${MiB(figures.heapAfterHalf)} | ${MiB(figures.heapAfter)} | ${MiB(figures.heapAfterIdle)} |`,
  );
  if (figures.failures > 0) problems.push(`server (${what}): ${figures.failures} logins failed`);
}

lines.push(
  '',
  `### Sessions (createSessions in one process, one operation at a time: one core; cookie ${num(sessionFigures.cookieBytes)} B, game token ${num(sessionFigures.gameTokenBytes)} B)`,
  '',
  '| operation | per second | p50 | p99 |',
  '|---|---:|---:|---:|',
  ...sessionFigures.rows.map(
    (row) => `| ${row.name} | ${num(Math.round(row.rate))} | ${row.p50Us.toFixed(1)} µs | ${row.p99Us.toFixed(1)} µs |`,
  ),
);

const table = lines.join('\n');
const results = fileURLToPath(new URL('./results.md', import.meta.url));
const intro = '# Benchmarks\n\nWritten by `npm run bench` (bench/run.ts); see the README for how to read it.\n\n';
// Sections written by other scripts stay until those run again: bench/server-compare.ts's (the
// server beside an older tree) and bench/popup-timing.ts's (old and new popup logins side by side).
const before = existsSync(results) ? readFileSync(results, 'utf8') : '';
const kept = ['server-compare', 'popup-timing']
  .map((name) => new RegExp(`<!-- ${name} -->[\\s\\S]*<!-- \\/${name} -->`).exec(before)?.[0])
  .filter((section) => section !== undefined)
  .map((section) => `\n${section}\n`)
  .join('');
writeFileSync(results, `${intro}${table}\n${problems.length ? `\n**Problems:** ${problems.join('; ')}\n` : ''}${kept}`);
process.stdout.write(`${table}\n`);
log(`done in ${Math.round((Date.now() - started) / 1000)} s; written to bench/results.md`);
if (problems.length) {
  log(`PROBLEMS: ${problems.join('; ')}`);
  process.exitCode = 1;
}
