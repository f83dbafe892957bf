/**
 * `npm run bench:replay` — what a change costs a run rebuilt from history, measured in one process: one history
 * replayed again and again on two workflow bundles, this checkout's and another commit's, alternating round by round
 * so that the machine's noise falls on both. A replay is the worker's part of deciding an evicted run (section 6 of
 * RESULTS.md) without the server's: fetching the history and the task round trips, the same for both bundles.
 *
 *   npm run bench:replay -- --history FILE --base REF      e.g. --base HEAD~1: REF's bundle against this checkout's
 *   npm run bench:replay -- --history FILE                 this checkout on both sides: the noise floor of the ratio
 *   options: --rounds N (default 12, the first a warm-up)  --per N (replays per round and side, default 100)
 *
 * Prints wall time and the process's CPU time per replay, each side's median of rounds; on a busy machine the CPU time
 * is the steadier of the two.
 *
 * A history to replay: `npm run bench:evicted -- --target-only --samples 5 --save-histories DIR` writes the paused
 * run that section 6's target judges (DIR/evicted-1000-continued.json); any file under test/histories/ replays too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import type { bundleWorkflows as BundleWorkflows } from '../src/workflow-bundle.js';
import { runCommand } from './command.js';
import { quietLogger } from './experiments.js';
import { BENCH_DIR } from './ipc.js';
import { median, ratio, round } from './stats.js';

const { values: args } = parseArgs({
  options: {
    history: { type: 'string' },
    base: { type: 'string' },
    rounds: { type: 'string', default: '12' },
    per: { type: 'string', default: '100' },
  },
});

const ROOT = path.resolve(BENCH_DIR, '..');

/** The agent bundle of the checkout at `root`, built by that checkout's own bundling code. */
async function bundleOf(root: string): Promise<string> {
  const { bundleWorkflows } = (await import(pathToFileURL(path.join(root, 'src', 'workflow-bundle.ts')).href)) as {
    bundleWorkflows: typeof BundleWorkflows;
  };
  return (await bundleWorkflows({ logger: quietLogger })).code;
}

/** `ref` checked out beside this one (sharing its node_modules) for as long as `use` runs. */
async function withCheckoutOf<T>(ref: string, use: (root: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hitl-replay-base-'));
  const root = path.join(dir, 'checkout');
  try {
    execFileSync('git', ['worktree', 'add', '--detach', '--quiet', root, ref], { cwd: ROOT, stdio: 'inherit' });
    try {
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
      return await use(root);
    } finally {
      execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: ROOT });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readHistory(file: string): { events?: unknown[] } {
  const json = JSON.parse(readFileSync(file, 'utf8')) as { history?: { events?: unknown[] }; events?: unknown[] };
  // test/histories wraps each history with its workflow id; `temporal workflow show --output json` does not.
  return json.history ?? json;
}

async function main(): Promise<void> {
  if (!args.history || !existsSync(args.history))
    throw new Error('--history FILE: a workflow history to replay (see the header of bench/replay-command.ts)');
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const history = readHistory(args.history);
  const rounds = Number(args.rounds);
  const per = Number(args.per);
  if (!(rounds >= 2 && per >= 2))
    throw new Error('--rounds and --per: 2 or more each (the first round warms up; a round times replays 2 to N)');
  const ours = await bundleOf(ROOT);
  const base = args.base ? await withCheckoutOf(args.base, bundleOf) : ours;
  const sides = { base, ours } as const;
  const perReplay: Record<keyof typeof sides, number[]> = { base: [], ours: [] };
  const cpuPerReplay: Record<keyof typeof sides, number[]> = { base: [], ours: [] };
  for (let r = 0; r < rounds; r++) {
    // Alternate which side goes first, so neither always follows the other.
    for (const side of r % 2 ? (['ours', 'base'] as const) : (['base', 'ours'] as const)) {
      const histories = (async function* () {
        for (let i = 0; i < per; i++) yield { workflowId: `replay-${side}-${r}-${i}`, history };
      })();
      // Timed from the first replay's end to the last's: not the replay worker's start, the same for both sides.
      let first: number | undefined;
      let cpuAtFirst: NodeJS.CpuUsage | undefined;
      for await (const result of Worker.runReplayHistories({ workflowBundle: { code: sides[side] }, replayName: side }, histories)) {
        if (result.error) throw result.error;
        if (first === undefined) [first, cpuAtFirst] = [performance.now(), process.cpuUsage()];
      }
      // The first round warms both sides up (the bundle's first evaluation, V8's code caches).
      if (r > 0) {
        perReplay[side].push((performance.now() - first!) / (per - 1));
        const cpu = process.cpuUsage(cpuAtFirst);
        cpuPerReplay[side].push((cpu.user + cpu.system) / 1000 / (per - 1));
      }
    }
  }
  const [b, o] = [median(perReplay.base), median(perReplay.ours)];
  const label = args.base ? `${args.base} (base)` : 'this checkout (base: the same code, the noise floor)';
  console.log(`history: ${args.history} (${history.events?.length ?? 0} events), ${rounds - 1} measured rounds of ${per} replays a side`);
  console.log(`${label}: ${round(b, 3)} ms per replay (median of rounds)`);
  console.log(`this checkout: ${round(o, 3)} ms per replay`);
  console.log(`this checkout ÷ base: ${ratio(o, b)}`);
  // The process's CPU time (the replay and the SDK's core threads alike) waits for no core: steadier on a busy machine.
  const [bc, oc] = [median(cpuPerReplay.base), median(cpuPerReplay.ours)];
  console.log(`CPU time per replay: base ${round(bc, 3)} ms, this checkout ${round(oc, 3)} ms, this checkout ÷ base: ${ratio(oc, bc)}`);
}

runCommand(main);
