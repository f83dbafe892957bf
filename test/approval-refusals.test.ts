/**
 * Every refusal, sent both ways: the update is refused with a clear message; the signal is recorded in the audit
 * log as refused with the same words, and the run keeps waiting with its pending list unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowHandle } from '@temporalio/client';
import { runStateQuery } from '../src/contract/messages.js';
import { ACCEPTED_SHAPES } from '../src/contract/seed-decisions.js';
import { decide, refusalOf, signalDecision, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });

let h: Harness;
let handle: WorkflowHandle;

beforeAll(async () => {
  h = await startHarness({
    recordAs: 'approval-refusals',
    script: {
      conversations: [
        {
          match: 'four calls',
          replies: [
            {
              toolCalls: [
                call('w', 'write_file', { path: 'w.txt', content: 'w' }),
                call('q', 'execute_sql', { query: 'SELECT 1' }),
                call('r', 'process_refund', { orderId: '1234', amount: 20000 }),
                call('c', 'cancel_order', { orderId: '1235' }),
              ],
            },
            { content: 'done' },
          ],
        },
      ],
    },
  });
  handle = await h.start({ agent: 'demo', prompt: 'Make four calls', requestedBy: 'rita', approval: { fourEyes: true } });
  await waitForPending(handle, 4);
  await decide(handle, { decisions: [{ id: 'call-4', type: 'approve' }], approver: 'alice' });
  await waitForPending(handle, 3);
});
afterAll(() => h?.close());

const TOOLS = 'read_data, write_file, execute_sql, send_email, cancel_order, process_refund';
const cases: { name: string; input: unknown; code: string; message: string | RegExp }[] = [
  {
    name: 'an unknown id',
    input: { decisions: [{ id: 'nope', type: 'approve' }] },
    code: 'unknown_call',
    message: 'No pending call has id nope. Pending: call-1, call-2, call-3.',
  },
  {
    name: 'a call already decided',
    input: { decisions: [{ id: 'call-4', type: 'reject' }] },
    code: 'already_decided',
    message: 'call-4 was already decided (approve by alice).',
  },
  {
    name: 'a decision type the tool does not allow',
    input: { decisions: [{ id: 'call-2', type: 'edit', args: { query: 'SELECT 2' } }] },
    code: 'decision_not_allowed',
    message: 'edit is not allowed for execute_sql (call-2); allowed: approve, reject.',
  },
  {
    name: 'edit args invalid for the schema',
    input: { decisions: [{ id: 'call-1', type: 'edit', args: { path: 'w.txt', content: 5 } }], approver: 'sam' },
    code: 'invalid_edit_args',
    message: 'The edited arguments for write_file are invalid:\n✖ Invalid input: expected string, received number\n  → at content',
  },
  {
    name: 'an edit to an unknown tool',
    input: { decisions: [{ id: 'call-1', type: 'edit', name: 'rm_rf' }], approver: 'sam' },
    code: 'unknown_tool',
    message: `Cannot edit write_file (call-1) into rm_rf: this agent has no such tool (tools: ${TOOLS}).`,
  },
  {
    name: 'an argsHash mismatch',
    input: { decisions: [{ id: 'call-1', type: 'approve', argsHash: 'sha256:00' }] },
    code: 'args_hash_mismatch',
    message:
      /^The argsHash sent for write_file \(call-1\) does not match its arguments \(expected sha256:[0-9a-f]{64}\): the arguments shown to you were not these\. Reload and decide again\.$/,
  },
  {
    name: 'a decision naming another tool',
    input: { decisions: [{ id: 'call-1', type: 'approve', toolName: 'execute_sql' }] },
    code: 'tool_mismatch',
    message:
      'Your decision names the tool execute_sql, but write_file (call-1) is a call of write_file: the call shown to you was not this one. Reload and decide again.',
  },
  {
    name: 'a batch count mismatch',
    input: { decisions: [{ type: 'approve' }, { type: 'approve' }] },
    code: 'batch_count_mismatch',
    message:
      'Got 2 decision(s) without ids, but the oldest pending batch has 3 call(s) (call-1 write_file, call-2 execute_sql, call-3 process_refund). Send one decision per call in that order, or use ids.',
  },
  {
    name: 'an approver not in the tool approvers',
    input: { decisions: [{ id: 'call-3', type: 'approve' }], approver: 'bob', groups: ['support'] },
    code: 'approver_not_allowed',
    message: 'bob may not decide process_refund (call-3); approvers: finance.',
  },
  {
    name: 'no approver for a tool with approvers',
    input: { decisions: [{ id: 'call-3', type: 'approve' }] },
    code: 'approver_required',
    message: 'process_refund (call-3) may only be decided by finance; say who you are (approver).',
  },
  {
    name: 'the requester approving their own run (four eyes)',
    input: { decisions: [{ id: 'call-3', type: 'approve' }], approver: 'rita', groups: ['finance'] },
    code: 'four_eyes',
    message: 'rita requested this run and may not approve its own process_refund (call-3); another approver must.',
  },
  {
    name: 'no approver for a call under the four-eyes rule',
    input: { decisions: [{ id: 'call-1', type: 'approve' }] },
    code: 'approver_required',
    message: 'write_file (call-1) falls under the four-eyes rule; say who you are (approver).',
  },
  {
    name: 'an empty decision list',
    input: { decisions: [] },
    code: 'empty',
    message: 'Malformed decision input:\n✖ send at least one decision\n  → at decisions',
  },
  {
    name: 'a malformed payload',
    input: { decisions: [{ id: 'call-1', type: 'approve', bogus: true }] },
    code: 'malformed',
    message: `Malformed decision input:\n✖ Unrecognized key: "bogus"\n  → at decisions[0]\n${ACCEPTED_SHAPES}`,
  },
  {
    name: 'a payload that is not an object',
    input: 'approve everything',
    code: 'malformed',
    message: /^Malformed decision input:\n✖ Invalid input: expected object, received string/,
  },
];

describe('refusals via the decide update', () => {
  it.each(cases)('refuses $name with a clear message, and nothing changes', async ({ input, code, message }) => {
    const before = await handle.query(runStateQuery);
    const refusal = await refusalOf(decide(handle, input as never));
    expect(refusal.code).toBe(code);
    if (typeof message === 'string') expect(refusal.message).toBe(message);
    else expect(refusal.message).toMatch(message);
    const after = await handle.query(runStateQuery);
    expect(after.pending).toEqual(before.pending);
    expect(after.decisions).toEqual(before.decisions);
  });
});

describe('refusals via the decision signal', () => {
  it.each(cases)('records $name as refused in the audit log and keeps waiting', async ({ input, code, message }) => {
    const before = await handle.query(runStateQuery);
    await signalDecision(handle, input);
    await waitFor(async () => (await handle.query(runStateQuery)).decisions.length === before.decisions.length + 1);
    const after = await handle.query(runStateQuery);
    const entry = after.decisions.at(-1)!;
    expect(entry).toMatchObject({ via: 'signal', outcome: 'refused', refusal: { code } });
    if (typeof message === 'string') expect(entry.refusal!.message).toBe(message);
    else expect(entry.refusal!.message).toMatch(message);
    expect(entry.input).toBe(JSON.stringify(input));
    expect(after.status).toBe('AwaitingApproval');
    expect(after.pending).toEqual(before.pending);
  });
});

describe('after the refusals', () => {
  it('still takes valid decisions and completes, the audit log accounting for every signal', async () => {
    await signalDecision(handle, {
      decisions: [
        { id: 'call-1', type: 'approve' },
        { id: 'call-2', type: 'reject' },
      ],
      approver: 'sam',
    });
    await decide(handle, { decisions: [{ id: 'call-3', type: 'approve' }], approver: 'fiona', groups: ['finance'] });
    expect(await handle.result()).toMatchObject({ status: 'Completed' });
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions.filter((d) => d.outcome === 'refused')).toHaveLength(cases.length);
    expect(decisions.filter((d) => d.outcome === 'applied').map((d) => [d.id, d.type, d.via])).toEqual([
      ['call-4', 'approve', 'update'],
      ['call-1', 'approve', 'signal'],
      ['call-2', 'reject', 'signal'],
      ['call-3', 'approve', 'update'],
    ]);
  });
});
