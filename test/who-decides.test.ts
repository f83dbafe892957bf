/**
 * Who decides, on the real server: reviewers before humans (a rule that approves, one that rejects, a model that
 * escalates with its reasoning, one that fails, and shadow mode), conditions that see the run's context, a run's own
 * policy that may tighten its agent's but never loosen it, and approvers named by kind (`group:`, `user:`).
 */
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import { decide, refusalOf, signalDecision, toolMessages, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { activitySummaries } from './helpers/history.js';

const call = (name: string, args: unknown) => ({ toolCalls: [{ id: 'c', name, arguments: args }] });
const verdict = (v: string, reason: string) => ({ content: JSON.stringify({ verdict: v, reason }) });
const review = (tool: string) => `/^Review this tool call[\\s\\S]*Tool: ${tool}\\n/`;

const reviewed = defineAgent({
  name: 'reviewed',
  instructions: 'You are a support agent.',
  tools: ['process_refund', 'cancel_order', 'write_file', 'send_email'],
  approval: {
    tools: {
      process_refund: { approvers: ['finance'], review: { rule: 'amountLimits', options: { approveUpTo: 100, rejectAbove: 50000 } } },
      cancel_order: { review: { name: 'risk-model', model: { instructions: 'You review order cancellations for a small shop.' } } },
      write_file: { review: { name: 'broken-model', model: { instructions: 'You review files the agent writes.' } } },
      send_email: { review: { name: 'tone', shadow: true, model: { instructions: 'You review the tone of outgoing email.' } } },
    },
  },
});

const contextual = defineAgent({
  name: 'contextual',
  instructions: 'You are a support agent.',
  tools: ['process_refund', 'write_file'],
  approval: {
    tools: {
      process_refund: { when: { predicate: 'exceedsContextLimit', options: { limit: 'refundLimit' } } },
      write_file: {
        when: {
          any: [
            { context: 'customer.tier', op: 'eq', value: 'new' },
            { fact: 'requestedBy', op: 'eq', value: 'intern' },
          ],
        },
      },
    },
  },
});

// Approvers named by kind: a person called `finance`, or in a group called `cfo`, is neither.
const typed = defineAgent({
  name: 'typed',
  instructions: 'You are a support agent.',
  tools: ['write_file'],
  approval: { tools: { write_file: { approvers: ['group:finance', 'user:cfo'] } } },
});

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    recordAs: 'who-decides',
    agents: { reviewed, contextual, typed },
    script: {
      conversations: [
        // The reviewers' requests come first: they also quote the run's prompt.
        // Slower than the tools' 10 s heartbeat timeout, which once reached every activity (activity-options.ts).
        {
          match: review('cancel_order'),
          replies: [{ ...verdict('escalate', 'Order 1235 is open and paid; a person should confirm.'), delayMs: 11_000 }],
        },
        { match: review('write_file'), replies: [{ content: 'Looks fine to me!' }] },
        { match: review('send_email'), replies: [verdict('reject', 'Too curt for a customer.')] },
        { match: 'small reviewed refund', replies: [call('process_refund', { orderId: '1235', amount: 50 }), { content: 'small done' }] },
        {
          match: 'large reviewed refund',
          replies: [call('process_refund', { orderId: '1234', amount: 60000 }), { content: 'large done' }],
        },
        {
          match: 'middling reviewed refund',
          replies: [call('process_refund', { orderId: '1234', amount: 700 }), { content: 'middling done' }],
        },
        { match: 'reviewed cancel', replies: [call('cancel_order', { orderId: '1235' }), { content: 'cancel done' }] },
        { match: 'reviewed write', replies: [call('write_file', { path: 'reviewed.txt', content: 'x' }), { content: 'write done' }] },
        {
          match: 'reviewed email',
          replies: [call('send_email', { to: 'ada@example.com', subject: 'Hi', body: 'Done.' }), { content: 'email done' }],
        },
        { match: 'context refund', replies: [call('process_refund', { orderId: '1238', amount: 200 }), { content: 'context done' }] },
        { match: 'context write', replies: [call('write_file', { path: 'context.txt', content: 'x' }), { content: 'context write done' }] },
        { match: 'tightened', replies: [call('cancel_order', { orderId: '1238' }), { content: 'tightened done' }] },
        { match: 'guarded refund', replies: [call('process_refund', { orderId: '1234', amount: 60000 }), { content: 'guarded done' }] },
        {
          match: 'guarded middling refund',
          replies: [call('process_refund', { orderId: '1234', amount: 20000 }), { content: 'guarded middling done' }],
        },
        { match: 'typed write', replies: [call('write_file', { path: 'typed.txt', content: 'x' }), { content: 'typed done' }] },
        { match: 'narrowed refund', replies: [call('process_refund', { orderId: '1238', amount: 50 }), { content: 'narrowed done' }] },
      ],
    },
  });
});
afterAll(() => h?.close());

const refunds = (key: string) =>
  (h.shop.prepare('SELECT COUNT(*) AS n FROM refunds WHERE idempotency_key = ?').get(key) as { n: number }).n;

describe('reviewers before humans', () => {
  it('a rule that approves: the tool runs with no human, audited as the reviewer’s decision', async () => {
    const handle = await h.start({ agent: 'reviewed', prompt: 'A small reviewed refund' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'small done' });
    expect(refunds(`${handle.workflowId}:call-1`)).toBe(1);
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions).toMatchObject([
      {
        via: 'reviewer',
        outcome: 'applied',
        type: 'approve',
        id: 'call-1',
        toolName: 'process_refund',
        decidedBy: 'reviewer:amountLimits',
        review: { reviewer: 'amountLimits', verdict: 'approve' },
        message: 'amount 50 is within the 100 approved without a human.',
      },
    ]);
    expect(decisions[0]!.approver).toBeUndefined();
    expect(await activitySummaries(handle)).toContain('review process_refund · reviewer:amountLimits');
  });

  it('a rule that rejects: the model is told why, the tool never runs', async () => {
    const handle = await h.start({ agent: 'reviewed', prompt: 'A large reviewed refund' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'large done' });
    expect(refunds(`${handle.workflowId}:call-1`)).toBe(0);
    expect(await toolMessages(handle)).toEqual([
      [
        'c',
        'Rejected by the automatic reviewer:amountLimits; process_refund did not run. Reason: amount 60000 is above the limit of 50000 for process_refund.',
      ],
    ]);
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions).toMatchObject([{ via: 'reviewer', type: 'reject', decidedBy: 'reviewer:amountLimits' }]);
  });

  it('a rule that escalates: humans (the tool’s approvers) decide, and see why', async () => {
    const handle = await h.start({ agent: 'reviewed', prompt: 'A middling reviewed refund' });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({
      approvers: ['finance'],
      review: { reviewer: 'amountLimits', verdict: 'escalate', reason: 'amount 700 needs a human: above 100 approved automatically.' },
    });
    await decide(handle, { decisions: [{ id: 'call-1', type: 'reject', message: 'not today' }], approver: 'fiona', groups: ['finance'] });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'middling done' });
  });

  it('a model that escalates: it is asked with its own instructions for a structured verdict; humans see its reasoning', async () => {
    const handle = await h.start({ agent: 'reviewed', prompt: 'A reviewed cancel', context: { secret: 'never-for-models' } });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({
      id: 'call-1',
      toolName: 'cancel_order',
      review: { reviewer: 'risk-model', verdict: 'escalate', reason: 'Order 1235 is open and paid; a person should confirm.' },
    });
    const asked = h.model.completions().find((r) => JSON.stringify(r.messages).includes('Tool: cancel_order'))!;
    expect(asked.messages[0]!.content).toMatch(/^You review order cancellations for a small shop\./);
    expect(asked).toMatchObject({ response_format: { type: 'json_schema', json_schema: { name: 'review_verdict', strict: true } } });
    expect(JSON.stringify(asked)).not.toContain('never-for-models');
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'ann' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'cancel done' });
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions.map((d) => [d.via, d.outcome, d.event ?? d.type, d.decidedBy ?? d.approver])).toEqual([
      ['reviewer', 'noted', 'reviewer_escalated', 'reviewer:risk-model'],
      ['update', 'applied', 'approve', 'ann'],
    ]);
  });

  it('a reviewer that fails (here: a model answering without a verdict) sends the call to humans', async () => {
    const handle = await h.start({ agent: 'reviewed', prompt: 'A reviewed write' });
    const [pending] = await waitForPending(handle, 1);
    expect(pending!.review).toMatchObject({ reviewer: 'broken-model', verdict: 'failed' });
    expect(pending!.review!.reason).toMatch(
      /^The reviewer could not decide: The model reviewer did not answer with JSON: Looks fine to me!/,
    );
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'ann' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'write done' });
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions[0]).toMatchObject({ via: 'reviewer', outcome: 'noted', event: 'reviewer_failed', decidedBy: 'reviewer:broken-model' });
  });

  it('shadow mode: humans decide as if there were no reviewer; its verdict is recorded, not acted on', async () => {
    const handle = await h.start({ agent: 'reviewed', prompt: 'A reviewed email' });
    const [pending] = await waitForPending(handle, 1);
    expect(pending!.review).toBeUndefined();
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'ann' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'email done' });
    expect(await toolMessages(handle)).toEqual([['c', 'Email to ada@example.com sent.']]);
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions).toHaveLength(2);
    expect(decisions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ via: 'update', type: 'approve', approver: 'ann' }),
        expect.objectContaining({
          via: 'reviewer',
          outcome: 'noted',
          event: 'shadow_verdict',
          id: 'call-1',
          decidedBy: 'reviewer:tone',
          review: { reviewer: 'tone', verdict: 'reject', reason: 'Too curt for a customer.', shadow: true },
        }),
      ]),
    );
  });
});

describe('what a run’s policy may see and change', () => {
  it('conditions see the run’s context and the requester', async () => {
    const trusted = await h.start({ agent: 'contextual', prompt: 'A context refund', context: { refundLimit: 1000 } });
    expect(await trusted.result()).toMatchObject({ status: 'Completed', output: 'context done' });
    const strict = await h.start({ agent: 'contextual', prompt: 'A context refund', context: { refundLimit: 100 } });
    const [pending] = await waitForPending(strict, 1);
    expect(pending!.rule).toBe('tools.process_refund.when: exceedsContextLimit()');
    await decide(strict, { decisions: [{ id: 'call-1', type: 'reject' }] });
    await strict.result();

    const veteran = await h.start({
      agent: 'contextual',
      prompt: 'A context write',
      requestedBy: 'ann',
      context: { customer: { tier: 'gold' } },
    });
    expect(await veteran.result()).toMatchObject({ output: 'context write done' });
    const intern = await h.start({
      agent: 'contextual',
      prompt: 'A context write',
      requestedBy: 'intern',
      context: { customer: { tier: 'gold' } },
    });
    expect((await waitForPending(intern, 1))[0]!.rule).toBe(
      'tools.write_file.when: any(context.customer.tier eq "new", requestedBy eq "intern")',
    );
    await decide(intern, { decisions: [{ id: 'call-1', type: 'reject' }] });
    await intern.result();
  });

  it('a run may tighten its agent’s policy at start', async () => {
    const handle = await h.start({
      agent: 'demo',
      prompt: 'A tightened run',
      approval: { tools: { cancel_order: { approvers: ['ops'], requiredApprovals: 2, allowedDecisions: ['approve', 'reject'] } } },
    });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({ approvers: ['ops'], requiredApprovals: 2, allowedDecisions: ['approve', 'reject'] });
    await decide(handle, { decisions: [{ id: 'call-1', type: 'reject' }], approver: 'oli', groups: ['ops'] });
    expect(await handle.result()).toMatchObject({ output: 'tightened done' });
  });

  it('a run may add a reviewer that can only reject or escalate: it takes no consent away', async () => {
    // The demo agent takes only tighter run policies. Its refunds over 10,000 wait for finance; this run has those
    // over 50,000 rejected with no one asked, and the rest still wait for finance.
    const gate = { when: { arg: 'amount', op: 'gt' as const, value: 10000 }, approvers: ['finance'], timeout: '3d' };
    const approval = { tools: { process_refund: { ...gate, review: { rule: 'amountLimits', options: { rejectAbove: 50000 } } } } };
    const large = await h.start({ agent: 'demo', prompt: 'A guarded refund', approval });
    expect(await large.result()).toMatchObject({ status: 'Completed', output: 'guarded done' });
    expect(refunds(`${large.workflowId}:call-1`)).toBe(0);
    expect((await large.query(runStateQuery)).decisions).toMatchObject([
      {
        via: 'reviewer',
        type: 'reject',
        decidedBy: 'reviewer:amountLimits',
        message: 'amount 60000 is above the limit of 50000 for process_refund.',
      },
    ]);
    const middling = await h.start({ agent: 'demo', prompt: 'A guarded middling refund', approval });
    const [pending] = await waitForPending(middling, 1);
    expect(pending).toMatchObject({
      toolName: 'process_refund',
      approvers: ['finance'],
      review: { reviewer: 'amountLimits', verdict: 'escalate' },
    });
    await decide(middling, { decisions: [{ id: pending!.id, type: 'reject' }], approver: 'fin', groups: ['finance'] });
    expect(await middling.result()).toMatchObject({ output: 'guarded middling done' });
    // One that may approve on its own is still a loosening.
    const approving = await h.start({
      agent: 'demo',
      prompt: 'A guarded refund',
      approval: { tools: { process_refund: { ...gate, review: { rule: 'amountLimits', options: { approveUpTo: 50000 } } } } },
    });
    const error = await approving.result().catch((e) => e);
    expect(error.cause.message).toContain('tools.process_refund.review: a reviewer may approve on its own');
  });

  it('a run that would loosen its agent’s policy fails at start, saying what loosens', async () => {
    const handle = await h.start({
      agent: 'demo',
      prompt: 'A tightened run',
      approval: { tools: { process_refund: false, cancel_order: { allowedDecisions: ['approve'], onTimeout: 'approve' } } },
    });
    const error = await handle.result().catch((e) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect(error.cause.type).toBe('InvalidRunInputError');
    expect(error.cause.message).toBe(
      `Invalid agentWorkflow input: approval may only tighten agent "demo"'s policy (its runOverrides is 'tighten'):\n` +
        '- tools.process_refund: the agent gates this tool; a run may not let its calls through\n' +
        '- tools.cancel_order.onTimeout: a run may not approve calls nobody decided',
    );
    expect(await handle.query(pendingApprovalsQuery).catch(() => [])).toEqual([]);
  });

  it('a run whose own policy is too large to carry on fails at start, saying how large', async () => {
    const approvers = Array.from({ length: 4000 }, (_, i) => `group:team-${i}`);
    const handle = await h.start({ agent: 'demo', prompt: 'A tightened run', approval: { tools: { cancel_order: { approvers } } } });
    const error = await handle.result().catch((e) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect(error.cause.type).toBe('InvalidRunInputError');
    expect(error.cause.message).toMatch(
      /^Invalid agentWorkflow input: approval and interrupt take \d+ bytes of JSON together; the limit is 65536, as a run carries them/,
    );
  });
});

describe('approvers named by kind', () => {
  it('group:<name> lets in the group’s members, not a person of that name; user:<id> the person, not a group', async () => {
    const handle = await h.start({ agent: 'typed', prompt: 'A typed write' });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({ id: 'call-1', toolName: 'write_file', approvers: ['group:finance', 'user:cfo'] });
    const approve = { decisions: [{ id: 'call-1', type: 'approve' as const }] };
    for (const who of [{ approver: 'finance' }, { approver: 'dave', groups: ['cfo'] }]) {
      expect(await refusalOf(decide(handle, { ...approve, ...who }))).toEqual({
        code: 'approver_not_allowed',
        message: `${who.approver} may not decide write_file (call-1); approvers: group:finance, user:cfo.`,
      });
    }
    // A group named like a typed entry is no name: `group:` says which kind an entry means.
    expect(await refusalOf(decide(handle, { ...approve, approver: 'dave', groups: ['group:finance'] }))).toMatchObject({
      code: 'malformed',
    });
    // A name is compared exactly, so one with white space around it is refused, not counted as someone else.
    expect(await refusalOf(decide(handle, { ...approve, approver: 'fay ', groups: ['finance'] }))).toEqual({
      code: 'malformed',
      message:
        'Malformed decision input: "fay " is not a name (a name is at most 200 characters, with no white space around it, no control or invisible characters, and no user: or group: prefix).',
    });
    // By signal the same: refused, audited, the call still waiting.
    await signalDecision(handle, { ...approve, approver: 'finance' });
    expect(await waitForPending(handle, 1)).toMatchObject([{ id: 'call-1' }]);
    await decide(handle, { ...approve, approver: 'fay', groups: ['finance'] });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'typed done' });
    const { decisions } = await handle.query(runStateQuery);
    expect(decisions.map((d) => [d.via, d.outcome, d.refusal?.code, d.approver])).toEqual([
      ['signal', 'refused', 'approver_not_allowed', 'finance'],
      ['update', 'applied', undefined, 'fay'],
    ]);
    expect(await toolMessages(handle)).toEqual([['c', expect.stringContaining('typed.txt')]]);
  });

  it('a run may narrow its agent’s bare approver entry to one kind', async () => {
    // The demo agent's refunds: approvers ['finance'], a person or a group of that name.
    const handle = await h.start({
      agent: 'demo',
      prompt: 'A narrowed refund',
      approval: { tools: { process_refund: { approvers: ['group:finance'] } } },
    });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({ toolName: 'process_refund', approvers: ['group:finance'] });
    expect(await refusalOf(decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'finance' }))).toMatchObject({
      code: 'approver_not_allowed',
    });
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'fay', groups: ['finance'] });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'narrowed done' });
    expect(refunds(`${handle.workflowId}:call-1`)).toBe(1);
  });
});
