/**
 * Patches replay in the workflow task that recorded them, however a run's first task was cut.
 *
 * A query answered while a local activity runs makes Core end that workflow task early (the activity's marker
 * in it) and deliver the activity's result in a new task; replay delivers the result in the first one. A patch
 * first asked right after that result then answered `false` on replay where it had answered `true` live: the
 * completed run failed every query ("Non-deprecated patch marker encountered for change who-decides"), and a
 * paused one would fail its decision once evicted. Found as a rare failure of test/breakpoints.test.ts under load.
 * Here the run starts while no worker polls and is queried at once, so the query rides on its first task and is
 * answered after the agent's resolution (a local activity) returned, before the workflow saw the result: the
 * previous code failed this replay every time it was tried. src/workflows/patches.ts is the fix: a run takes its
 * patches in its first activation.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import { decide, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { replayOnSuiteBundle } from './helpers/history.js';

const careful = defineAgent({
  name: 'careful',
  instructions: 'You write reports.',
  tools: ['write_file', 'read_data'],
  interrupt: { beforeTools: { tools: ['write_file'], approvers: ['editors'] } },
});
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    agents: { careful },
    script: {
      conversations: [
        {
          match: 'read then write',
          replies: [
            { toolCalls: [call('r1', 'read_data', { table: 'refunds' })] },
            { toolCalls: [call('w1', 'write_file', { path: 'report.md', content: 'draft' })] },
            { content: 'Done.' },
          ],
        },
      ],
    },
  });
});
afterAll(async () => h?.close());

describe('patches and a first workflow task cut by a query', () => {
  it('replays a run whose first task a query cut while the agent was resolved', { timeout: 120_000 }, async () => {
    // Started while no worker polls, and queried at once: the query rides on the run's first task.
    let handle!: Awaited<ReturnType<Harness['start']>>;
    let firstQuery!: Promise<unknown>;
    await h.restartWorker({
      whileStopped: async () => {
        handle = await h.start({ agent: 'careful', prompt: 'Please read then write the report', interrupt: { beforeModel: true } });
        firstQuery = handle.query(pendingApprovalsQuery);
        await sleep(500);
      },
    });
    await firstQuery;
    // Then on to the end: each pause before the model approved, the write before its tool rejected by an editor.
    for (let pauses = 0; pauses < 4; pauses++) {
      const [pause] = await waitForPending(handle, 1);
      if (pause!.breakpoint === 'beforeTools')
        await decide(handle, {
          decisions: [{ id: pause!.id, type: 'reject', message: 'No files today.' }],
          approver: 'alice',
          groups: ['editors'],
        });
      else await decide(handle, { decisions: [{ id: pause!.id, type: 'approve' }] });
    }
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'Done.' });

    const history = await handle.fetchHistory();
    const events = history.events ?? [];
    // The cut happened: the first task ended before the run's first pause, asking for a new task at once.
    const started = events.filter((e) => e.workflowTaskStartedEventAttributes);
    expect(started[1]?.workflowTaskStartedEventAttributes?.requestId).toBe('request-from-RespondWorkflowTaskCompleted');
    const firstTimer = events.findIndex((e) => e.timerStartedEventAttributes);
    expect(events.indexOf(started[1]!)).toBeLessThan(firstTimer);

    // A replay (what an evicted run or a query on a closed run does) takes the same branches.
    await expect(replayOnSuiteBundle(history, handle.workflowId, 'patch-replay')).resolves.toBeUndefined();
    // And the server's way: a new worker has nothing cached, so the query replays the closed run.
    await h.restartWorker();
    expect((await handle.query(runStateQuery)).status).toBe('Completed');
  });
});
