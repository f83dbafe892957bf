/**
 * What is waiting is visible from outside: search attributes for list filters, current details for the UI, and
 * the official `temporal` CLI listing, querying, updating and signalling with plain JSON.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { HitlAgent, HitlNextDeadline, HitlPendingCount, HitlPendingTools, HitlStatus } from '../src/contract/search-attributes.js';
import { pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import { waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const run = promisify(execFile);
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    recordAs: 'approval-visibility',
    script: {
      conversations: [
        {
          match: 'visible batch',
          replies: [
            { toolCalls: [call('v1', 'write_file', { path: 'v1.txt', content: '1' }), call('v2', 'cancel_order', { orderId: '1235' })] },
            { content: 'ok' },
          ],
        },
        {
          match: 'from the cli',
          replies: [
            {
              toolCalls: [
                call('x1', 'write_file', { path: 'x1.txt', content: '1' }),
                call('x2', 'execute_sql', { query: 'SELECT 1 AS one' }),
              ],
            },
            { content: 'ok' },
          ],
        },
      ],
    },
  });
});
afterAll(() => h?.close());

async function temporal(...args: string[]): Promise<string> {
  const { stdout } = await run(inject('temporalCliPath'), [...args, '--address', h.temporal.address, '--namespace', h.temporal.namespace]);
  return stdout;
}

describe('search attributes and current details', () => {
  it('keeps them current while waiting and after completion', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'A visible batch' });
    const pending = await waitForPending(handle, 2);

    const waitingQuery = `HitlStatus = 'AwaitingApproval' AND TaskQueue = '${h.taskQueue}'`;
    await waitFor(async () => {
      for await (const wf of h.temporal.client.workflow.list({ query: waitingQuery })) if (wf.workflowId === handle.workflowId) return true;
      return false;
    });
    const attrs = (await handle.describe()).typedSearchAttributes;
    expect(attrs.get(HitlStatus)).toBe('AwaitingApproval');
    expect(attrs.get(HitlAgent)).toBe('demo');
    expect(attrs.get(HitlPendingTools)).toEqual(['cancel_order', 'write_file']);
    expect(attrs.get(HitlPendingCount)).toBe(2);
    expect(attrs.get(HitlNextDeadline)?.toISOString()).toBe(pending[0]!.deadline);

    const metadata = (await handle.query('__temporal_workflow_metadata')) as { currentDetails: string };
    expect(metadata.currentDetails).toBe(
      [
        '**Step 1 of 25** · waiting for approval',
        '',
        '**Waiting for approval (2)**',
        '',
        '| call | tool | allowed | deadline |',
        '|---|---|---|---|',
        `| \`call-1\` | write_file | approve, edit, reject, respond, ignore | ${pending[0]!.deadline} |`,
        `| \`call-2\` | cancel_order | approve, edit, reject, respond, ignore | ${pending[1]!.deadline} |`,
      ].join('\n'),
    );

    await handle.executeUpdate('decide', { args: [{ decisions: [{ type: 'approve' }, { type: 'reject' }] }] });
    await handle.result();
    await waitFor(async () => (await handle.describe()).typedSearchAttributes.get(HitlStatus) === 'Completed');
    const done = (await handle.describe()).typedSearchAttributes;
    expect(done.get(HitlPendingCount)).toBe(0);
    expect(done.get(HitlPendingTools)).toBeUndefined();
    expect(done.get(HitlNextDeadline)).toBeUndefined();
  });
});

describe('the official temporal CLI', () => {
  it('lists waiting runs, queries pendingApprovals, and decides by update and by signal with JSON', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Decide this from the cli' });
    await waitForPending(handle, 2);

    await waitFor(async () => {
      const out = await temporal(
        'workflow',
        'list',
        '--query',
        `HitlStatus='AwaitingApproval' AND TaskQueue='${h.taskQueue}'`,
        '--output',
        'json',
      );
      return out.includes(handle.workflowId);
    });

    const queried = JSON.parse(
      await temporal('workflow', 'query', '--workflow-id', handle.workflowId, '--type', 'pendingApprovals', '--output', 'json'),
    );
    const fromCli = queried.queryResult[0];
    expect(fromCli).toEqual(await handle.query(pendingApprovalsQuery));
    expect(fromCli.map((p: { id: string }) => p.id)).toEqual(['call-1', 'call-2']);

    const updated = await temporal(
      'workflow',
      'update',
      'execute',
      '--workflow-id',
      handle.workflowId,
      '--name',
      'decide',
      '--input',
      JSON.stringify({ decisions: [{ id: 'call-2', type: 'approve' }], approver: 'ops-bot' }),
      '--output',
      'json',
    );
    expect(updated).toContain('"applied"');
    expect(updated).toContain('ops-bot');

    await temporal(
      'workflow',
      'signal',
      '--workflow-id',
      handle.workflowId,
      '--name',
      'decision',
      '--input',
      JSON.stringify({ decisions: [{ id: 'call-1', type: 'reject', message: 'from another service' }], approver: 'billing-service' }),
    );
    expect(await handle.result()).toMatchObject({ status: 'Completed' });
    const { decisions, messages } = await handle.query(runStateQuery);
    expect(decisions.map((d) => [d.id, d.type, d.via, d.approver])).toEqual([
      ['call-2', 'approve', 'update', 'ops-bot'],
      ['call-1', 'reject', 'signal', 'billing-service'],
    ]);
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'Rejected by a human reviewer; write_file did not run. Reason: from another service',
      '[{"one":1}]',
    ]);
  });
});
