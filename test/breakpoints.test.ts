/**
 * Breakpoints (LangGraph's `interrupt_before` / `interrupt_after`): a run pauses before the model, after it, or
 * before its tools; the pause is a pending item (`break-<n>`) in every pending view, decided through the one planner
 * like a gated call: approve continues, edit changes what it shows, reject (with a message) redirects or stops the
 * run. Decided here from the `hitl` CLI, over HTTP, and by the update.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { pendingApprovalsQuery, runStateQuery } from '../src/contract/messages.js';
import { HitlPendingTools, HitlStatus } from '../src/contract/search-attributes.js';
import type { Listening } from '../src/api/listen.js';
import { startTestApi } from './helpers/api.js';
import { runHitl } from './helpers/cli.js';
import { decide, refusalOf, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const stepper = defineAgent({ name: 'stepper', instructions: 'You write reports.', tools: ['write_file', 'read_data'] });
// An agent that always pauses before its file writes, but not before reads.
const careful = defineAgent({
  name: 'careful',
  instructions: 'You write reports.',
  tools: ['write_file', 'read_data'],
  interrupt: { beforeTools: { tools: ['write_file'], approvers: ['editors'] } },
});
// Emails wait for support; a file write that nobody decides within 2 s runs.
const gatekeeper = defineAgent({
  name: 'gatekeeper',
  instructions: 'You answer customers.',
  tools: ['send_email', 'write_file'],
  approval: { tools: { send_email: { approvers: ['support'] }, write_file: { timeout: '2s', onTimeout: 'approve' } } },
});
const TOKEN = 'alice-breakpoint-token-0123';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const draft = call('w1', 'write_file', { path: 'report.md', content: 'draft' });
const email = (id: string, to: string, body = 'Your refund is on its way.') => call(id, 'send_email', { to, subject: 'Refund', body });

let h: Harness;
let api: Listening;
beforeAll(async () => {
  h = await startHarness({
    recordAs: 'breakpoints',
    agents: { stepper, careful, gatekeeper },
    script: {
      conversations: [
        { match: 'cli report', replies: [{ toolCalls: [draft] }, { content: 'Written.' }] },
        { match: 'http answer', replies: [{ content: 'A vague answer.' }, { content: 'A precise answer.' }] },
        { match: 'before the model', replies: [{ content: 'Answered.' }] },
        {
          match: 'read then write',
          replies: [{ toolCalls: [call('r1', 'read_data', { table: 'refunds' })] }, { toolCalls: [draft] }, { content: 'Done.' }],
        },
        { match: 'wait a little', replies: [{ content: 'Went on by itself.' }] },
        { match: 'a gated call after the breakpoint', replies: [{ toolCalls: [email('g1', 'ada@example.com')] }, { content: 'Sent.' }] },
        {
          match: 'people write calls',
          replies: [
            { toolCalls: [email('m1', 'ada@example.com')] },
            { toolCalls: [email('m2', 'ada@example.com')] },
            { toolCalls: [email('m3', 'x@example.com'), email('m4', 'y@example.com')] },
            { content: 'Done.' },
          ],
        },
      ],
    },
  });
  api = await startTestApi(h, {
    tokens: { [TOKEN]: { approver: 'alice', groups: ['editors'] } },
    agents: { stepper, careful, gatekeeper },
  });
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

async function http(method: string, urlPath: string, body?: unknown) {
  const response = await fetch(`${api.url}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('breakpoints', () => {
  it('lists the gated call a decided breakpoint lets through, not the breakpoint, while it waits', async () => {
    const handle = await h.start({ agent: 'gatekeeper', prompt: 'a gated call after the breakpoint', interrupt: { afterModel: true } });
    await waitForPending(handle, 1);
    await waitFor(async () => (await handle.describe()).typedSearchAttributes.get(HitlPendingTools)?.[0] === 'breakpoint:afterModel');
    await decide(handle, { decisions: [{ id: 'break-1', type: 'approve' }], approver: 'alice' });
    const [waiting] = await waitForPending(handle, 1);
    expect(waiting).toMatchObject({ id: 'call-1', toolName: 'send_email' });
    // Lists read the search attributes and the memo: no step comes after the announcement to publish them later.
    await waitFor(async () => (await handle.describe()).typedSearchAttributes.get(HitlPendingTools)?.[0] === 'send_email', 10_000);
    const listed = (await runHitl(h, ['pending', '--json'])).stdout;
    expect(JSON.parse(listed).filter((w: { workflowId: string }) => w.workflowId === handle.workflowId)).toEqual([
      expect.objectContaining({ id: 'call-1', toolName: 'send_email' }),
    ]);
    await decide(handle, { decisions: [{ id: 'call-1', type: 'reject', message: 'not now' }], approver: 'sam', groups: ['support'] });
    // afterModel pauses after the final answer too.
    await waitFor(async () => (await handle.query(pendingApprovalsQuery))[0]?.id === 'break-2');
    await decide(handle, { decisions: [{ id: 'break-2', type: 'approve' }], approver: 'alice' });
    expect(await handle.result()).toMatchObject({ status: 'Completed' });
  });

  it('pauses after the model and before tools, shows it in every pending view, and is decided from the CLI', async () => {
    const handle = await h.start({ agent: 'stepper', prompt: 'Write the cli report', interrupt: { afterModel: true, beforeTools: true } });
    const [after] = await waitForPending(handle, 1);
    expect(after).toMatchObject({
      id: 'break-1',
      toolName: 'breakpoint:afterModel',
      breakpoint: 'afterModel',
      args: { content: null, toolCalls: [{ id: 'call-1', name: 'write_file', args: { path: 'report.md', content: 'draft' } }] },
      allowedDecisions: ['approve', 'edit', 'reject'],
      rule: 'interrupt.afterModel',
      step: 1,
    });
    // Every view: the run's state and status, search attributes, the CLI for this run and across runs.
    expect((await handle.query(runStateQuery)).status).toBe('AwaitingApproval');
    await waitFor(async () => (await handle.describe()).typedSearchAttributes.get(HitlPendingTools)?.[0] === 'breakpoint:afterModel');
    expect((await runHitl(h, ['pending', handle.workflowId])).stdout).toContain('break-1');
    const across = await runHitl(h, ['pending', '--json']);
    expect(JSON.parse(across.stdout).find((w: { workflowId: string }) => w.workflowId === handle.workflowId)).toMatchObject({
      id: 'break-1',
      breakpoint: 'afterModel',
    });
    const approved = await runHitl(h, ['approve', handle.workflowId, 'break-1', '--as', 'alice']);
    expect(approved.stdout).toContain('approve breakpoint:afterModel (break-1) by alice');
    const [before] = await waitForPending(handle, 1);
    expect(before).toMatchObject({ id: 'break-2', breakpoint: 'beforeTools', args: { toolCalls: [{ id: 'call-1', name: 'write_file' }] } });
    const edited = { toolCalls: [{ id: 'call-1', name: 'write_file', args: { path: 'report.md', content: 'final' } }] };
    const edit = await runHitl(h, ['edit', handle.workflowId, 'break-2', '--args', JSON.stringify(edited), '--as', 'alice']);
    expect(edit.code).toBe(0);
    // afterModel pauses after every model call, the final answer's too.
    const [last] = await waitForPending(handle, 1);
    expect(last).toMatchObject({ id: 'break-3', breakpoint: 'afterModel', args: { content: 'Written.', toolCalls: [] } });
    expect((await runHitl(h, ['approve', handle.workflowId, 'break-3', '--as', 'alice'])).code).toBe(0);

    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'Written.' });
    expect(readFileSync(path.join(h.dataDir, 'workspace', 'report.md'), 'utf8')).toBe('final');
    const state = await handle.query(runStateQuery);
    expect(state.messages[2]).toMatchObject({
      tool_calls: [{ id: 'w1', function: { name: 'write_file', arguments: '{"path":"report.md","content":"final"}' } }],
    });
    expect(state.decisions.map((d) => [d.id, d.type, d.approver, d.toolName])).toEqual([
      ['break-1', 'approve', 'alice', 'breakpoint:afterModel'],
      ['break-2', 'edit', 'alice', 'breakpoint:beforeTools'],
      ['break-3', 'approve', 'alice', 'breakpoint:afterModel'],
    ]);
    expect(state.modelCalls![0]).toMatchObject({ verdict: { action: 'edit', by: 'breakpoint' } });
  });

  it('is listed and decided over HTTP: a rejection sends the reply back, an edit replaces it', async () => {
    const started = await http('POST', '/api/runs', { agent: 'stepper', prompt: 'An http answer please', interrupt: { afterModel: true } });
    expect(started.status).toBe(201);
    const runId: string = started.body.workflowId;
    const listed = async () => (await http('GET', '/api/approvals?agent=stepper')).body.filter((a: any) => a.workflowId === runId);
    await waitFor(async () => (await listed()).length === 1);
    const [first] = await listed();
    expect(first).toMatchObject({
      callId: 'break-1',
      breakpoint: 'afterModel',
      toolName: 'breakpoint:afterModel',
      arguments: { content: 'A vague answer.' },
    });
    const tools = (await http('GET', '/api/tools')).body.map((t: { name: string }) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['breakpoint:beforeModel', 'breakpoint:afterModel', 'breakpoint:beforeTools']));

    expect((await http('POST', `/api/approvals/${first.id}/reject`, { reason: 'Be precise.' })).status).toBe(200);
    await waitFor(async () => (await listed())[0]?.callId === 'break-2');
    const [second] = await listed();
    expect(second.arguments.content).toBe('A precise answer.');
    const bad = await http('POST', `/api/approvals/${second.id}/edit`, { arguments: { content: 42 } });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_edit_args' } } });
    const edit = await http('POST', `/api/approvals/${second.id}/edit`, { arguments: { content: 'A precise, edited answer.' } });
    expect(edit.status).toBe(200);

    const handle = h.temporal.client.workflow.getHandle(runId);
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'A precise, edited answer.', steps: 2 });
    const { messages } = await handle.query(runStateQuery);
    expect(messages.slice(2)).toEqual([
      { role: 'assistant', content: 'A vague answer.' },
      { role: 'user', content: 'Be precise.' },
      { role: 'assistant', content: 'A precise, edited answer.' },
    ]);
  });

  it('sends back the default words for a rejection after the model whose reason says nothing (patch set 32)', async () => {
    const handle = await h.start({ agent: 'stepper', prompt: 'An http answer please, said blankly', interrupt: { afterModel: true } });
    await waitForPending(handle, 1);
    await decide(handle, { decisions: [{ id: 'break-1', type: 'reject', message: ' \u3164\n' }] });
    const [second] = await waitForPending(handle, 1);
    await decide(handle, { decisions: [{ id: second!.id, type: 'approve' }] });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'A precise answer.' });
    const { messages } = await handle.query(runStateQuery);
    expect(messages[3]).toEqual({ role: 'user', content: 'A human reviewer rejected this at a breakpoint (afterModel).' });
  });

  it('before the model: an edit adds to what the model reads, a rejection stops the run', async () => {
    const handle = await h.start({ agent: 'stepper', prompt: 'Stop before the model', interrupt: { beforeModel: true } });
    const [paused] = await waitForPending(handle, 1);
    expect(paused).toMatchObject({
      breakpoint: 'beforeModel',
      step: 0,
      args: { messages: [{ role: 'user', content: 'Stop before the model' }] },
    });
    // What a breakpoint allows: no respond, no always.
    expect((await refusalOf(decide(handle, { decisions: [{ id: 'break-1', type: 'respond', message: 'x' }] }))).code).toBe(
      'decision_not_allowed',
    );
    expect((await refusalOf(decide(handle, { decisions: [{ id: 'break-1', type: 'approve', always: true }] }))).code).toBe(
      'decision_not_allowed',
    );
    // A user message that says nothing (patch set 32): the model would read an empty turn, and some APIs refuse one.
    const blank = { role: 'user', content: ' \u3000\n' };
    const empty = await refusalOf(decide(handle, { decisions: [{ id: 'break-1', type: 'edit', args: { messages: [blank] } }] }));
    expect(empty).toMatchObject({
      code: 'invalid_edit_args',
      message: expect.stringContaining('a user message with no text (messages[0])'),
    });
    await decide(handle, {
      decisions: [
        {
          id: 'break-1',
          type: 'edit',
          args: {
            messages: [
              { role: 'user', content: 'Stop before the model' },
              { role: 'user', content: 'Answer in one word.' },
            ],
          },
        },
      ],
    });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'Answered.' });
    const sent = h.model.completions().filter((r) => JSON.stringify(r.messages).includes('Stop before the model'));
    expect(sent.at(-1)!.messages.slice(1)).toEqual([
      { role: 'user', content: 'Stop before the model' },
      { role: 'user', content: 'Answer in one word.' },
    ]);

    const stopped = await h.start({ agent: 'stepper', prompt: 'Stop before the model again', interrupt: { beforeModel: true } });
    await waitForPending(stopped, 1);
    await decide(stopped, { decisions: [{ id: 'break-1', type: 'reject', message: 'Not today.' }], approver: 'alice' });
    expect(await stopped.result()).toMatchObject({ status: 'Stopped', output: 'Not today.', steps: 0 });
    await waitFor(async () => (await stopped.describe()).typedSearchAttributes.get(HitlStatus) === 'Stopped');
  });

  it("keeps the answers to the model's calls in an edit, and pauses only before the tools it lists", async () => {
    const handle = await h.start({ agent: 'careful', prompt: 'Please read then write the report', interrupt: { beforeModel: true } });
    await waitForPending(handle, 1);
    await decide(handle, { decisions: [{ id: 'break-1', type: 'approve' }] });
    // The read ran without a pause (careful pauses only before write_file); before the next model call it pauses.
    const [tail] = await waitForPending(handle, 1);
    expect(tail!.args).toMatchObject({ messages: [{ role: 'tool', tool_call_id: 'r1' }] });
    const dropped = await refusalOf(
      decide(handle, { decisions: [{ id: tail!.id, type: 'edit', args: { messages: [{ role: 'user', content: 'x' }] } }] }),
    );
    expect(dropped).toMatchObject({ code: 'invalid_edit_args' });
    expect(dropped.message).toContain("must keep the answers to the model's calls (tool_call_id r1)");
    await decide(handle, {
      decisions: [
        { id: tail!.id, type: 'edit', args: { messages: [{ role: 'tool', tool_call_id: 'r1', content: '[] (checked by hand)' }] } },
      ],
    });

    // Before write_file: only the editors group may decide.
    const [write] = await waitForPending(handle, 1);
    expect(write).toMatchObject({ breakpoint: 'beforeTools', approvers: ['editors'] });
    expect((await refusalOf(decide(handle, { decisions: [{ id: write!.id, type: 'approve' }], approver: 'bob' }))).code).toBe(
      'approver_not_allowed',
    );
    await decide(handle, {
      decisions: [{ id: write!.id, type: 'reject', message: 'No files today.' }],
      approver: 'alice',
      groups: ['editors'],
    });
    const [model] = await waitForPending(handle, 1);
    expect(model!.breakpoint).toBe('beforeModel');
    await decide(handle, { decisions: [{ id: model!.id, type: 'approve' }] });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'Done.' });
    const { messages } = await handle.query(runStateQuery);
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      '[] (checked by hand)',
      'Rejected by a human reviewer; write_file did not run. Reason: No files today.',
    ]);
  });

  it("may not be switched off or handed to others by the run's own breakpoints, on any channel", async () => {
    // Straight through Temporal: the run itself refuses, before its first model call.
    const off = await h.start({ agent: 'careful', prompt: 'Please read then write the report', interrupt: { beforeTools: false } });
    const error = await off.result().catch((e) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect(error.cause.type).toBe('InvalidRunInputError');
    expect(error.cause.message).toBe(
      `Invalid agentWorkflow input: interrupt may only tighten agent "careful"'s breakpoints (its runOverrides is 'tighten'):\n` +
        '- interrupt.beforeTools: the agent pauses here; a run may not switch it off',
    );
    const others = await h.start({
      agent: 'careful',
      prompt: 'Please read then write the report',
      interrupt: { beforeTools: { tools: ['read_data'], approvers: ['mallory'], onTimeout: 'approve' } },
    });
    expect(((await others.result().catch((e) => e)) as WorkflowFailedError).cause?.message.split('\n').slice(1)).toEqual([
      '- interrupt.beforeTools.tools: the agent pauses before write_file too',
      '- interrupt.beforeTools.approvers: the agent allows only editors, not mallory',
      '- interrupt.beforeTools.onTimeout: a run may not continue past a pause nobody decided',
    ]);
    // Over HTTP and from the CLI the run is not even started.
    const refused = await http('POST', '/api/runs', { agent: 'careful', prompt: 'x', interrupt: { beforeTools: true } });
    expect([refused.status, refused.body.error.message]).toEqual([
      400,
      expect.stringContaining('interrupt.beforeTools.approvers: the agent allows only editors, not anyone'),
    ]);
    // Tightening is free: more tools, narrower approvers, a pause the agent lacks.
    const tighter = await h.start({
      agent: 'careful',
      prompt: 'Please read then write the report',
      interrupt: { beforeTools: { approvers: ['group:editors'] }, afterModel: true },
    });
    const [first] = await waitForPending(tighter, 1);
    expect(first).toMatchObject({ breakpoint: 'afterModel' });
    await tighter.terminate('checked');
  });

  it("applies the breakpoint's onTimeout when nobody decides", async () => {
    const handle = await h.start({
      agent: 'stepper',
      prompt: 'Please wait a little',
      interrupt: { afterModel: { timeout: '1s', onTimeout: 'approve' } },
    });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'Went on by itself.' });
    expect((await handle.query(runStateQuery)).decisions).toMatchObject([{ id: 'break-1', type: 'approve', via: 'timeout' }]);
    expect(await handle.query(pendingApprovalsQuery)).toEqual([]);
  });

  it('makes a call a person wrote at a breakpoint wait for someone else: not its writer, not `always`, not its deadline', async () => {
    const handle = await h.start({ agent: 'gatekeeper', prompt: 'Let people write calls', interrupt: { afterModel: true } });
    const support = (approver: string) => ({ approver, groups: ['support'] });
    const pendingIds = async () => (await handle.query(pendingApprovalsQuery)).map((p) => p.id);

    // The model's own email, let through at the breakpoint, then approved by bob for every later email.
    await waitForPending(handle, 1);
    await decide(handle, { decisions: [{ id: 'break-1', type: 'approve' }], ...support('alice') });
    const [first] = await waitForPending(handle, 1);
    expect(first).toMatchObject({ id: 'call-1', toolName: 'send_email' });
    expect(first!.proposedBy).toBeUndefined();
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve', always: true }], ...support('bob') });

    // bob rewrites the next reply: an email of his own, and a file write whose deadline would approve it.
    await waitFor(async () => (await pendingIds()).includes('break-2'));
    const written = {
      content: null,
      toolCalls: [
        { name: 'send_email', args: { to: 'attacker@example.com', subject: 'Refund', body: 'bob wrote this' } },
        { name: 'write_file', args: { path: 'bob.txt', content: 'bob wrote this' } },
      ],
    };
    await decide(handle, { decisions: [{ id: 'break-2', type: 'edit', args: written }], ...support('bob') });
    const waiting = await waitForPending(handle, 2);
    const byBob = { approver: 'bob', callId: 'break-2', toolName: 'breakpoint:afterModel' };
    expect(waiting).toMatchObject([
      { toolName: 'send_email', args: { to: 'attacker@example.com' }, proposedBy: byBob, excludedApprovers: ['bob'] },
      { toolName: 'write_file', proposedBy: byBob, excludedApprovers: ['bob'], onTimeout: 'reject' },
    ]);
    const [mail, file] = waiting.map((p) => p.id);
    // Not by his standing approval, and not by himself; carol, also support, may.
    const own = await refusalOf(decide(handle, { decisions: [{ id: mail!, type: 'approve' }], ...support('bob') }));
    expect(own).toMatchObject({ code: 'four_eyes' });
    expect(own.message).toContain(`bob wrote send_email (${mail}) at a breakpoint and may not approve it`);
    await decide(handle, { decisions: [{ id: mail!, type: 'approve' }], ...support('carol') });
    // Nobody decides the file write: its deadline rejects it instead of approving it.
    await waitFor(async () => (await handle.query(runStateQuery)).decisions.some((d) => d.id === file && d.type === 'timeout'));
    expect(existsSync(path.join(h.dataDir, 'workspace', 'bob.txt'))).toBe(false);

    // alice keeps the model's first email as it was (its keys in another order) and rewrites the second's body: only
    // the one she wrote waits; bob's standing approval settles the model's.
    await waitFor(async () => (await pendingIds()).includes('break-3'));
    const [third] = await handle.query(pendingApprovalsQuery);
    const [kept, changed] = (third!.args as { toolCalls: { id: string }[] }).toolCalls;
    const rewritten = {
      content: null,
      toolCalls: [
        { id: kept!.id, name: 'send_email', args: { body: 'Your refund is on its way.', subject: 'Refund', to: 'x@example.com' } },
        { id: changed!.id, name: 'send_email', args: { to: 'y@example.com', subject: 'Refund', body: 'alice wrote this' } },
      ],
    };
    await decide(handle, { decisions: [{ id: 'break-3', type: 'edit', args: rewritten }], ...support('alice') });
    const [hers] = await waitForPending(handle, 1);
    expect(hers).toMatchObject({
      id: changed!.id,
      args: { body: 'alice wrote this' },
      proposedBy: { approver: 'alice', callId: 'break-3' },
    });
    // Its writer may still withdraw it, as she could have left it out.
    await decide(handle, { decisions: [{ id: changed!.id, type: 'reject', message: 'not this one' }], ...support('alice') });

    await waitFor(async () => (await pendingIds()).includes('break-4'));
    await decide(handle, { decisions: [{ id: 'break-4', type: 'approve' }], ...support('alice') });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'Done.' });
    const { decisions } = await handle.query(runStateQuery);
    const calls = decisions.filter((d) => d.outcome === 'applied' && !d.id!.startsWith('break-'));
    expect(calls.map((d) => [d.id, d.type, d.via, d.approver])).toEqual([
      ['call-1', 'approve', 'update', 'bob'],
      [mail, 'approve', 'update', 'carol'],
      [file, 'timeout', 'timeout', undefined],
      [kept!.id, 'approve', 'always', 'bob'],
      [changed!.id, 'reject', 'update', 'alice'],
    ]);
  });
});
