/** The durable agent loop: model calls and tools as activities, against the real dev server and scripted model. */
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../src/agents/define-agent.js';
import type { ChatMessage } from '../src/schemas/chat-message.js';
import { toFunctionDefinition } from '../src/tools/define-tool.js';
import { toolSpecs } from '../src/tools/registry.js';
import { runStateQuery } from '../src/contract/messages.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { activitySummaries, localActivitySummaries, waitFor } from './helpers/history.js';

const ops = defineAgent({
  name: 'ops',
  instructions: 'You are the operations test agent.',
  tools: ['read_data', 'write_file', 'process_refund', 'send_email'],
  maxSteps: 6,
});
const triage = defineAgent({
  name: 'triage',
  instructions: 'Classify the ticket.',
  tools: [],
  responseFormat: z.object({ category: z.enum(['billing', 'shipping']), priority: z.number().int().min(1).max(3) }),
});

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });

let h: Harness;
let writeFileFailures = 0;

beforeAll(async () => {
  h = await startHarness({
    agents: { ops, triage },
    wrapTools: (tools) => ({
      ...tools,
      // A tool that always throws after doing nothing: its error must reach the model once retries run out.
      write_file: {
        ...tools.write_file!,
        run: (args, ctx) => {
          if ((args as { path: string }).path === 'fail.txt') {
            writeFileFailures++;
            throw new Error('disk full');
          }
          return tools.write_file!.run(args, ctx);
        },
      },
      // Fails its first attempt after the refund is committed: the retry must not refund twice.
      process_refund: {
        ...tools.process_refund!,
        run: async (args, ctx) => {
          const result = await tools.process_refund!.run(args, ctx);
          if (ctx.attempt === 1) throw new Error('connection reset after the refund was written');
          return result;
        },
      },
    }),
    script: {
      conversations: [
        {
          match: 'report on orders',
          replies: [
            {
              toolCalls: [
                call('c1', 'read_data', { table: 'orders', where: { status: 'shipped' } }),
                call('c2', 'read_data', { table: 'refunds' }),
              ],
            },
            { toolCalls: [call('c3', 'write_file', { path: 'reports/orders.md', content: '1 shipped order' })] },
            { content: 'The report is in reports/orders.md.' },
          ],
        },
        {
          match: 'bad calls',
          replies: [
            {
              toolCalls: [
                call('u1', 'delete_everything', {}),
                { id: 'u2', name: 'read_data', rawArguments: '{"table": "orders",' },
                call('u3', 'read_data', { table: 'customers' }),
                call('u4', 'write_file', { path: 'fail.txt', content: 'x' }),
              ],
            },
            { content: 'I could not do any of that.' },
          ],
        },
        {
          match: 'rate limited',
          replies: [{ error: { status: 429, message: 'Rate limit reached', retryAfter: 1, times: 1 }, content: 'Done after waiting.' }],
        },
        { match: 'bad request', replies: [{ error: { status: 400, message: "Invalid value for 'model': no such model" } }] },
        { match: 'loop forever', replies: [{ toolCalls: [call('l', 'read_data', { table: 'refunds' })], repeat: 100 }] },
        { match: 'classify: good', replies: [{ content: 'not json' }, { content: '{"category":"billing","priority":2}' }] },
        { match: 'classify: bad', replies: [{ content: '{"category":"food"}' }, { content: '{"category":"billing"}' }] },
        {
          match: 'refund once',
          replies: [{ toolCalls: [call('r1', 'process_refund', { orderId: '1235', amount: 20 })] }, { content: 'Refunded.' }],
        },
        { match: 'slow', replies: [{ delayMs: 60_000, content: 'too late' }] },
      ],
    },
  });
});
afterAll(() => h?.close());

const system = (content: string): ChatMessage => ({ role: 'system', content });
const user = (content: string): ChatMessage => ({ role: 'user', content });

describe('agent loop', () => {
  it('runs three steps with two parallel tool calls, sending the model exactly the transcript', async () => {
    const handle = await h.start({ agent: 'ops', prompt: 'Write a report on orders' });
    const result = await handle.result();

    expect(result).toMatchObject({ status: 'Completed', output: 'The report is in reports/orders.md.', steps: 3 });
    const shipped = JSON.stringify(h.shop.prepare("SELECT * FROM orders WHERE status = 'shipped' LIMIT 100").all());
    const assistant1 = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'read_data', arguments: '{"table":"orders","where":{"status":"shipped"}}' } },
        { id: 'c2', type: 'function', function: { name: 'read_data', arguments: '{"table":"refunds"}' } },
      ],
    };
    const assistant2 = {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'c3',
          type: 'function',
          function: { name: 'write_file', arguments: '{"path":"reports/orders.md","content":"1 shipped order"}' },
        },
      ],
    };
    const step1 = [system('You are the operations test agent.'), user('Write a report on orders')];
    const step2 = [
      ...step1,
      assistant1,
      { role: 'tool', tool_call_id: 'c1', content: shipped },
      { role: 'tool', tool_call_id: 'c2', content: '[]' },
    ];
    const step3 = [...step2, assistant2, { role: 'tool', tool_call_id: 'c3', content: 'Wrote 15 bytes to reports/orders.md.' }];

    const sent = h.model.requests.filter((r) => JSON.stringify(r.body).includes('Write a report on orders'));
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(sent.map((r) => (r.body as { messages: unknown }).messages)).toEqual([step1, step2, step3]);
    expect((sent[0]!.body as { tools: unknown }).tools).toEqual(ops.tools.map((name) => toFunctionDefinition(toolSpecs[name]!)));

    const state = await handle.query(runStateQuery);
    expect(state.messages).toEqual([...step3, { role: 'assistant', content: 'The report is in reports/orders.md.' }]);
    expect(await activitySummaries(handle)).toEqual([
      'model scripted-model · step 1',
      'tool read_data',
      'tool read_data',
      'model scripted-model · step 2',
      'tool write_file',
      'model scripted-model · step 3',
    ]);
    // read_data is `local: true`: it ran in the workflow's worker (a marker each), write_file as a regular activity.
    expect(await localActivitySummaries(handle)).toEqual(['tool read_data', 'tool read_data']);
  });

  it('sends unknown tools, malformed JSON, schema violations and tool exceptions back to the model', async () => {
    const handle = await h.start({ agent: 'ops', prompt: 'Make some bad calls' });
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'Completed', output: 'I could not do any of that.' });

    const tools = (await handle.query(runStateQuery)).messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => [m.tool_call_id, m.content])).toEqual([
      ['u1', 'Error: delete_everything is not a valid tool, try one of [read_data, write_file, process_refund, send_email].'],
      [
        'u2',
        expect.stringMatching(/^Error: the arguments for read_data are not valid JSON \(.+\)\. Call the tool again with a JSON object\.$/),
      ],
      [
        'u3',
        expect.stringMatching(
          /^Error: invalid arguments for read_data:\n✖ Invalid option: expected one of "orders"\|"refunds"\n {2}→ at table\nFix them and call the tool again\.$/,
        ),
      ],
      ['u4', 'Error: disk full\n Please fix your mistakes.'],
    ]);
    expect(writeFileFailures).toBe(3);
    expect(h.model.requests.filter((r) => JSON.stringify(r.body).includes('Make some bad calls')).every((r) => r.status === 200)).toBe(
      true,
    );
  });

  it('retries a 429 after its retry-after, and fails the run with the API message on a 400', async () => {
    const limited = await h.start({ agent: 'ops', prompt: 'rate limited please' });
    expect(await limited.result()).toMatchObject({ status: 'Completed', output: 'Done after waiting.' });
    const attempts = h.model.requests.filter((r) => JSON.stringify(r.body).includes('rate limited please'));
    expect(attempts.map((r) => r.status)).toEqual([429, 200]);
    expect(attempts[1]!.receivedAt - attempts[0]!.receivedAt).toBeGreaterThanOrEqual(950);

    const rejected = await h.start({ agent: 'ops', prompt: 'a bad request' });
    const error = await rejected.result().catch((e) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect(error.cause.message).toBe("The model API rejected the request (400): Invalid value for 'model': no such model");
    expect(error.cause.type).toBe('ModelRequestRejectedError');
    expect(h.model.requests.filter((r) => JSON.stringify(r.body).includes('a bad request'))).toHaveLength(1);
    const state = await rejected.query(runStateQuery);
    expect(state).toMatchObject({ status: 'Failed', error: error.cause.message });
    expect(JSON.stringify(await rejected.fetchHistory())).not.toContain('sk-test-key');
  });

  it('ends with status max_steps and says more steps were needed', async () => {
    const handle = await h.start({ agent: 'ops', prompt: 'loop forever', maxSteps: 3 });
    const result = await handle.result();
    expect(result).toMatchObject({
      status: 'MaxSteps',
      steps: 3,
      output: 'I stopped after 3 steps, the limit for this run; more steps were needed to finish.',
    });
    expect((await handle.query(runStateQuery)).status).toBe('MaxSteps');
  });

  it('validates structured output, with one corrective retry, then fails clearly', async () => {
    const good = await h.start({ agent: 'triage', prompt: 'classify: good ticket' });
    expect(await good.result()).toMatchObject({ status: 'Completed', structured: { category: 'billing', priority: 2 }, steps: 2 });
    const messages = (await good.query(runStateQuery)).messages;
    expect(messages[3]).toEqual({
      role: 'user',
      content: expect.stringMatching(/^Your answer does not match the required response format:\nthe reply is not JSON/),
    });
    const sent = h.model.completions().find((r) => JSON.stringify(r).includes('classify: good'));
    expect(sent).toMatchObject({ response_format: { type: 'json_schema', json_schema: { name: 'triage_response' } } });

    const bad = await h.start({ agent: 'triage', prompt: 'classify: bad ticket' });
    const error = await bad.result().catch((e) => e);
    expect(error.cause.type).toBe('StructuredOutputError');
    expect(error.cause.message).toContain('Agent "triage" returned output that does not match its responseFormat, twice.');
    expect(error.cause.message).toContain('priority');
  });

  it('makes a side effect exactly once when the activity is retried after the effect', async () => {
    const handle = await h.start({ agent: 'ops', prompt: 'refund once please' });
    expect(await handle.result()).toMatchObject({ status: 'Completed' });
    const refunds = h.shop.prepare("SELECT * FROM refunds WHERE order_id = '1235'").all();
    expect(refunds).toEqual([{ id: expect.any(Number), order_id: '1235', amount: 20, idempotency_key: `${handle.workflowId}:call-1` }]);
    expect(h.shop.prepare("SELECT refunded FROM orders WHERE id = '1235'").get()).toEqual({ refunded: 20 });
    const tool = (await handle.query(runStateQuery)).messages.find((m) => m.role === 'tool');
    expect(tool?.content).toBe('{"orderId":"1235","refunded":20,"remaining":100}');
  });

  it('fails an unknown agent at once with the known ones listed', async () => {
    const handle = await h.start({ agent: 'nobody', prompt: 'hello' });
    const error = await handle.result().catch((e) => e);
    expect(error.cause.message).toMatch(/^Unknown agent "nobody"\. Known agents: demo, coordinator, researcher, ops, triage\.$/);
    expect(h.model.requests.some((r) => JSON.stringify(r.body).includes('"hello"'))).toBe(false);
  });

  it('cancels in-flight activities and ends with status canceled', async () => {
    const handle = await h.start({ agent: 'ops', prompt: 'slow model' });
    await waitFor(async () => (await handle.query(runStateQuery)).step === 1);
    await handle.cancel();
    const error = await handle.result().catch((e) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect(error.cause.name).toBe('CancelledFailure');
    expect((await handle.query(runStateQuery)).status).toBe('Canceled');
    const events = (await handle.fetchHistory()).events ?? [];
    expect(events.some((e) => e.activityTaskCancelRequestedEventAttributes)).toBe(true);
  });
});
