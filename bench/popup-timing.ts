// The framed game's popup login, timed old and new side by side on one machine: the click in the
// framed game to its `itch-login-success`, and where that time goes. Each side is a popup world
// (test/e2e/support/popup-world.ts: its dist/, its token handler, its emulator), with the consent
// page severing the popup (COOP) as itch.io's does; the browser is driven by this checkout's
// engine drivers (test/engines/), a fresh browser context per run. The sides are interleaved,
// their order alternating every round, so that the machine's load falls on both alike.
//
// "old" is another checkout (`--old DIR`) when given; without it, this checkout with its token
// endpoint as a server from before held collections (`oldServer`: no `Prefer`, so the opener asks
// once a second, as it did before).
//
//   tsx bench/popup-timing.ts [--old DIR] [--new .] [--runs 15] [--engines chromium,firefox] [--wait 20]
//
// Both checkouts must be built (`npm run build` in each). Progress goes to stderr, the table to
// stdout. Not part of `npm test`: timings are noisy.
//
// What is measured, per run (all in milliseconds):
// - total: `itch-login-start` (fired by the click) to `itch-login-success`, both in the game
//   frame's clock (performance.now()).
// - toItch: the click to the navigation start of itch.io's consent page in the popup (the start
//   page, the opener's answer and the bind: the part the binding protocol changes).
// - toDeposit: the click to the backend answering the callback's deposit (the person's approval,
//   made by the driver, is in it).
// - poll: the deposit (answered by the backend) to the success: the approval → game figure (once
//   a second polling spreads it over about a second; a held collection answers at once).
// - requests per waiting minute: collections the backend received while the player stayed
//   `--wait` seconds on the consent page, once per side, scaled to a minute.
// Clocks: the page's performance.timeOrigin + now() and Node's Date.now() are both the system's
// wall clock on one machine.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SEED_CREDENTIALS as C } from '../src/emulator/index.js';
import type { PopupWorld } from '../test/e2e/support/popup-world.js';
import { newWindowFrom, waitForText, waitForUrl, type Engine, type EngineName, type Session } from '../test/engines/driver.js';
import { locateEngine } from '../test/engines/engines.js';
import { openFramedGame } from '../test/engines/steps.js';
import { median, p90 } from './stats.js';

const { values } = parseArgs({
  options: {
    old: { type: 'string' },
    new: { type: 'string', default: path.resolve(import.meta.dirname, '..') },
    runs: { type: 'string', default: '15' },
    engines: { type: 'string', default: 'chromium' },
    wait: { type: 'string', default: '20' },
  },
});
const RUNS = Number(values.runs);
const log = (message: string) => process.stderr.write(`[popup-timing] ${message}\n`);

interface Side {
  name: 'old' | 'new';
  root: string;
  note?: string;
  world: PopupWorld;
}
interface Run {
  total: number;
  toItch: number;
  toDeposit: number;
  poll: number;
}

async function startSide(name: Side['name'], root: string, oldServer = false): Promise<Side> {
  const { startPopupWorld } = (await import(
    path.join(path.resolve(root), 'test/e2e/support/popup-world.ts')
  )) as typeof import('../test/e2e/support/popup-world.js');
  const world = await startPopupWorld({ coop: true, oldServer });
  return { name, root, world, ...(oldServer && { note: ' (its token endpoint as a server without holding)' }) };
}

/** One login in the framed game of `side`, in a fresh session, the player waiting `waitMs` on the consent page: its times, and the collections during the wait. */
async function loginOnce(engine: Engine, side: Side, waitMs = 0): Promise<Run & { asked: number | undefined }> {
  const { world } = side;
  const session: Session = await engine.newSession();
  const depositsBefore = world.deposits.length;
  let depositAt: number | undefined;
  const push = world.deposits.push;
  world.deposits.push = (...items: number[]) => {
    depositAt ??= Date.now();
    return push.apply(world.deposits, items);
  };
  try {
    const main = await openFramedGame(session, world);
    const popup = await newWindowFrom(session, () => session.click('itch-login-button'));
    await session.switchToWindow(popup);
    await waitForUrl(
      session,
      "the emulator's consent page",
      (url) => url.origin === world.emulator.url && url.pathname === '/user/oauth',
      20_000,
    );
    const itchAt = await session.evaluate(() => performance.timeOrigin);
    const waitFrom = Date.now();
    // The collection already held when the wait starts is one of its requests too.
    const heldThen = (world as { holding?: number }).holding ?? 0;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    // (A checkout from before this figure has no count of collections.)
    const asked = (world as { collections?: number[] }).collections?.filter((at) => at >= waitFrom).length;
    const requests = asked === undefined ? undefined : asked + Math.min(heldThen, 1);
    await session.select('#user', String(C.users.gamer));
    await session.click('button[value="approve"]');
    await session.switchToWindow(main);
    await session.enterFrame('iframe[title="game"]');
    const result = await waitForText(session, '#result', 'the outcome', (text) => text !== '', 30_000);
    if (!result.startsWith('itch-login-success ')) throw new Error(`${side.name}: ${result.slice(0, 300)}`);
    const page = await session.evaluate(() => {
      const events = (window as unknown as { events: { type: string; at: number }[] }).events;
      return {
        origin: performance.timeOrigin,
        start: events.find((e) => e.type === 'itch-login-start')!.at,
        success: events.find((e) => e.type === 'itch-login-success')!.at,
      };
    });
    if (depositAt === undefined || world.deposits.length !== depositsBefore + 1 || world.deposits.at(-1) !== 202)
      throw new Error(`${side.name}: deposits ${JSON.stringify(world.deposits)}`);
    const clickAt = page.origin + page.start;
    const successAt = page.origin + page.success;
    return {
      total: page.success - page.start,
      toItch: itchAt - clickAt,
      toDeposit: depositAt - clickAt,
      poll: successAt - depositAt,
      asked: requests,
    };
  } finally {
    world.deposits.push = push;
    await session.close().catch(() => undefined);
  }
}

const f = (value: number) => value.toFixed(0);
const row = (runs: Run[], key: keyof Run) => `${f(median(runs.map((r) => r[key])))} (p90 ${f(p90(runs.map((r) => r[key])))})`;

const sides = [
  values.old === undefined ? await startSide('old', values.new, true) : await startSide('old', values.old),
  await startSide('new', values.new),
];
const WAIT_S = Number(values.wait);
log(`old: ${sides[0]!.root}, new: ${sides[1]!.root}, ${RUNS} runs each, interleaved`);
const lines: string[] = [];
try {
  for (const name of values.engines.split(',') as EngineName[]) {
    const located = locateEngine(name);
    if (!('launch' in located)) {
      log(`${name}: ${located.missing}`);
      continue;
    }
    const engine = await located.launch();
    const runs: Record<Side['name'], Run[]> = { old: [], new: [] };
    const perMinute: Record<Side['name'], string> = { old: 'n/a', new: 'n/a' };
    try {
      // One unrecorded run per side: the first pays for the browser's and the servers' warm-up.
      for (const side of sides) await loginOnce(engine, side);
      for (const side of sides) {
        const { asked } = await loginOnce(engine, side, WAIT_S * 1000);
        if (asked !== undefined) perMinute[side.name] = ((asked * 60) / WAIT_S).toFixed(1);
        log(`${name} ${side.name}: ${asked ?? '?'} collections while the player waited ${WAIT_S} s`);
      }
      for (let round = 0; round < RUNS; round++) {
        const order = round % 2 === 0 ? sides : [...sides].reverse();
        for (const side of order) {
          const run = await loginOnce(engine, side);
          runs[side.name].push(run);
          log(
            `${name} ${round + 1}/${RUNS} ${side.name}: total ${f(run.total)}, to itch.io ${f(run.toItch)}, to deposit ${f(run.toDeposit)}, poll ${f(run.poll)}`,
          );
        }
      }
    } finally {
      await engine.close();
    }
    const delta = (median(runs.new.map((r) => r.total)) / median(runs.old.map((r) => r.total)) - 1) * 100;
    lines.push(
      `### ${engine.version}, N = ${RUNS} per side\n`,
      '| ms, median (p90) | old | new |',
      '| --- | --- | --- |',
      ...(['total', 'toItch', 'toDeposit', 'poll'] as const).map((key) => `| ${key} | ${row(runs.old, key)} | ${row(runs.new, key)} |`),
      `| collections per waiting minute (${WAIT_S} s on the consent page) | ${perMinute.old} | ${perMinute.new} |`,
      '',
      `total: new vs old median ${delta >= 0 ? '+' : ''}${delta.toFixed(1)} %\n`,
    );
  }
} finally {
  for (const side of sides) await side.world.close();
}
process.stdout.write(`${lines.join('\n')}\n`);

// Into bench/results.md, its own section (which `npm run bench` keeps).
const results = path.join(import.meta.dirname, 'results.md');
const section = [
  '<!-- popup-timing -->',
  `### Popup timing (bench/popup-timing.ts, ${new Date().toISOString().slice(0, 10)}: framed game, consent page severing the popup)`,
  '',
  `old: ${path.relative(process.cwd(), sides[0]!.root) || 'this checkout'}${sides[0]!.note ?? ''}; new: ${path.relative(process.cwd(), sides[1]!.root) || 'this checkout'}. "poll" is the approval → game figure: from the backend's answer to the deposit to the game's \`itch-login-success\`.`,
  '',
  ...lines,
  '<!-- /popup-timing -->',
  '',
].join('\n');
const before = existsSync(results) ? readFileSync(results, 'utf8') : '';
const marked = /<!-- popup-timing -->[\s\S]*<!-- \/popup-timing -->\n/;
writeFileSync(results, marked.test(before) ? before.replace(marked, section) : `${before.trimEnd()}\n\n${section}`);
