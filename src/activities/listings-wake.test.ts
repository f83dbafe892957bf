/**
 * The decided tool's wake-up of its run, in the SDK's activity test environment, which has no client to give: every
 * attempt to send the signal then shows as the warning its failure logs, so what sends and what does not can be told
 * apart without a server (test/decision-task.test.ts sends it for real).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Context, type Info } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger, type LogEntry } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { wakeRunAfter } from './listings-wake.js';

const FAILED = 'Could not wake the run to publish its listings';

/** Runs `body` as an activity with this info; the warnings it logged. */
async function warningsOf(info: Partial<Info>, body: (activity: Context) => Promise<void>): Promise<string[]> {
  const entries: LogEntry[] = [];
  const env = new MockActivityEnvironment(
    { workflowExecution: { workflowId: 'wf-1', runId: 'run-1' }, ...info },
    { logger: new DefaultLogger('WARN', (entry) => entries.push(entry)) },
  );
  await env.run(() => body(Context.current()));
  return entries.map((entry) => entry.message);
}

describe('wakeRunAfter', () => {
  it('sends once it is due; a client the worker cannot give is logged, never thrown out of the timer', async () => {
    const warnings = await warningsOf({}, async (activity) => {
      wakeRunAfter(activity, 5);
      await sleep(100);
    });
    expect(warnings).toEqual([FAILED]);
  });

  it('sends nothing when stopped before it is due (the tool ended)', async () => {
    const warnings = await warningsOf({}, async (activity) => {
      const stop = wakeRunAfter(activity, 50);
      stop();
      await sleep(150);
    });
    expect(warnings).toEqual([]);
  });

  it.each([
    ['a local activity', { isLocal: true }, 5],
    ['no bound asked for', {}, undefined],
    ['a bound that is not a number', {}, '5'],
    ['a negative bound', {}, -1],
    ['NaN', {}, Number.NaN],
  ])('sends nothing for %s', async (_what, info: Partial<Info>, afterMs: unknown) => {
    const warnings = await warningsOf(info, async (activity) => {
      wakeRunAfter(activity, afterMs);
      await sleep(100);
    });
    expect(warnings).toEqual([]);
  });
});
