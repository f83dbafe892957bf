/**
 * A typed context (LangGraph's `context_schema`): zod for agents in code, JSON Schema as agents files declare it.
 * The start input is checked with a clear error by the client and the HTTP API before anything starts, and by the
 * worker whoever started the run; tools, conditions and selectors receive the checked value; the model never sees it.
 */
import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../src/agents/define-agent.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { runStateQuery } from '../src/contract/messages.js';
import { InvalidRunInputError } from '../src/errors.js';
import type { Listening } from '../src/api/listen.js';
import { startTestApi } from './helpers/api.js';
import { waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';

const Tenant = z.object({
  tenant: z.string().min(2),
  tier: z.enum(['free', 'pro']).default('free'),
  apiKey: z.string().startsWith('sk-'),
});

const typed = defineAgent({
  name: 'typed',
  instructions: 'You help one tenant.',
  tools: ['send_email', 'read_data'],
  contextSchema: Tenant,
  // Emails of free-tier tenants wait for a human; pro tenants' do not.
  approval: { tools: { send_email: { when: { context: 'tier', op: 'eq', value: 'free' } } } },
  modelSelector: { selector: 'byContext', options: { key: 'tier', models: { pro: { model: 'gpt-4.1' } } } },
});

// As an agents file declares it: JSON Schema.
const filed = defineAgent({
  name: 'filed',
  instructions: 'You help one tenant.',
  tools: ['read_data'],
  contextSchema: {
    type: 'object',
    properties: { tenant: { type: 'string', minLength: 2 }, seats: { type: 'integer', minimum: 1 } },
    required: ['tenant'],
    additionalProperties: false,
  },
});

// A JSON Schema's default decides a condition as zod's does.
const filedTier = defineAgent({
  name: 'filed-tier',
  instructions: 'You help one tenant.',
  tools: ['send_email'],
  contextSchema: {
    type: 'object',
    properties: { tenant: { type: 'string' }, tier: { type: 'string', enum: ['free', 'pro'], default: 'free' } },
    required: ['tenant'],
  },
  approval: { tools: { send_email: { when: { context: 'tier', op: 'eq', value: 'free' } } } },
});

const agents = { typed, filed, 'filed-tier': filedTier };
const email = { id: 'e1', name: 'send_email', arguments: { to: 'ann@example.com', subject: 'Hello', body: 'Your order shipped.' } };
const SECRET = 'sk-never-shown-to-the-model';

let h: Harness;
let api: Listening;
const seen: unknown[] = [];
beforeAll(async () => {
  h = await startHarness({
    agents,
    wrapTools: (tools) => ({
      ...tools,
      send_email: {
        ...tools.send_email!,
        run: (args, ctx) => {
          seen.push(ctx.context);
          return tools.send_email!.run(args, ctx);
        },
      },
    }),
    script: {
      conversations: [
        { match: 'email the customer', replies: [{ toolCalls: [email] }, { content: 'Sent.' }] },
        { match: 'just answer', replies: [{ content: 'Answered.' }] },
      ],
    },
  });
  api = await startTestApi(h, {
    tokens: { 'alice-token-0123456789': { approver: 'alice', groups: [] } },
    hitl: new HitlClient(h.temporal.client, h.taskQueue, {}, agents),
  });
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

describe('typed context', () => {
  it('refuses a context that does not match, before starting, in the client and over HTTP', async () => {
    const hitl = new HitlClient(h.temporal.client, h.taskQueue, {}, agents);
    const refused = await hitl
      .startRun({ agent: 'typed', prompt: 'Just answer', context: { tenant: 'x', apiKey: 'nope' } }, { workflowId: 'never-started' })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(InvalidRunInputError);
    expect(refused.message).toBe(
      'Invalid agentWorkflow input: context does not match agent "typed"\'s contextSchema:\n' +
        '✖ Too small: expected string to have >=2 characters\n  → at tenant\n' +
        '✖ Invalid string: must start with "sk-"\n  → at apiKey',
    );
    await expect(h.temporal.client.workflow.getHandle('never-started').describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    const response = await fetch(`${api.url}/api/runs`, {
      method: 'POST',
      headers: { authorization: 'Bearer alice-token-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'filed', prompt: 'Just answer', context: { tenant: 'acme', seats: 0, extra: true } }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_run_input');
    expect(body.error.message).toContain('context does not match agent "filed"\'s contextSchema');
    expect(body.error.message).toContain('→ at context.seats');
  });

  it('fails a run started around the client (the temporal CLI, another SDK) with the same words', async () => {
    const handle = await h.start({ agent: 'filed', prompt: 'Just answer', context: { seats: 3 } });
    const failure = await handle.result().catch((e) => e);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect(failure.cause).toMatchObject({ type: 'InvalidRunInputError' });
    expect(failure.cause.message).toMatch(
      /^Invalid agentWorkflow input: context does not match agent "filed"'s contextSchema:\n✖ .*\n  → at context/,
    );
  });

  it('gives tools, conditions and selectors the checked context, defaults applied, and never shows it to the model', async () => {
    const hitl = new HitlClient(h.temporal.client, h.taskQueue, {}, agents);
    // Free tier (the default): the email waits for a human; the agent's model answers.
    const free = await hitl.startRun({ agent: 'typed', prompt: 'Please email the customer', context: { tenant: 'acme', apiKey: SECRET } });
    const handle = h.temporal.client.workflow.getHandle(free.workflowId);
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({ toolName: 'send_email', rule: 'tools.send_email.when: context.tier eq "free"' });
    await hitl.approve(free.workflowId, pending!.id);
    expect(await handle.result()).toMatchObject({ status: 'Completed' });
    expect(seen.at(-1)).toEqual({ tenant: 'acme', tier: 'free', apiKey: SECRET });

    // Pro tier: no wait, and the selector picks the pro model from the context.
    const pro = await hitl.startRun({
      agent: 'typed',
      prompt: 'Please email the customer',
      context: { tenant: 'bigco', tier: 'pro', apiKey: SECRET },
    });
    const proHandle = h.temporal.client.workflow.getHandle(pro.workflowId);
    expect(await proHandle.result()).toMatchObject({ status: 'Completed', output: 'Sent.' });
    expect(seen.at(-1)).toEqual({ tenant: 'bigco', tier: 'pro', apiKey: SECRET });
    const state = await proHandle.query(runStateQuery);
    expect(state.modelCalls?.map((c) => c.model)).toEqual(['gpt-4.1', 'gpt-4.1']);
    expect(state.policyOutcomes.map((o) => o.rule)).toEqual(['tools.send_email.when: context.tier eq "free" did not hold']);

    const sentToModel = JSON.stringify(h.model.requests.map((r) => r.body));
    expect(sentToModel).toContain('Please email the customer');
    expect(sentToModel).not.toContain(SECRET);
    expect(sentToModel).not.toContain('bigco');
  });

  it("applies a JSON Schema's defaults: a condition and a tool see them as with zod's", async () => {
    const hitl = new HitlClient(h.temporal.client, h.taskQueue, {}, agents);
    const free = await hitl.startRun({ agent: 'filed-tier', prompt: 'Please email the customer', context: { tenant: 'acme' } });
    const handle = h.temporal.client.workflow.getHandle(free.workflowId);
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({ toolName: 'send_email', rule: 'tools.send_email.when: context.tier eq "free"' });
    await hitl.approve(free.workflowId, pending!.id);
    expect(await handle.result()).toMatchObject({ status: 'Completed' });
    expect(seen.at(-1)).toEqual({ tenant: 'acme', tier: 'free' });
  });

  it('refuses a context schema that is not an object schema when the agent is defined', () => {
    expect(() => defineAgent({ name: 'x', instructions: 'x', tools: [], contextSchema: { type: 'string' } })).toThrow(
      /contextSchema: a context schema is a JSON Schema of `type: object`/,
    );
  });
});
