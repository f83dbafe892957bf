/**
 * Model hooks and a dynamic model (LangGraph's `pre_model_hook`, `post_model_hook` and a model chosen per call):
 * pure hooks run in the workflow, hooks that need I/O as activities; both are recorded in history and replay as
 * they ran. The model each call used shows in the run state and in the Temporal UI's activity summaries.
 */
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { runStateQuery } from '../src/contract/messages.js';
import { HitlStatus } from '../src/contract/search-attributes.js';
import { sentMessagesOf, type ModelCallMessages } from '../src/contract/message-chain.js';
import { approximateTokens } from '../src/hooks/trim-messages.js';
import { startModelServer, type ModelServer } from '../src/model-server/server.js';
import type { ModelScriptInput } from '../src/model-server/script-schema.js';
import type { ChatMessage } from '../src/schemas/chat-message.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { activitySummaries } from './helpers/history.js';

const BUDGET = 2000;
const lookups = Array.from({ length: 32 }, (_, i) => ({
  id: `r${i}`,
  name: 'read_data',
  arguments: { table: 'orders', where: { status: 'lost' } },
}));

const script: ModelScriptInput = {
  conversations: [
    { match: 'a long conversation', replies: [{ toolCalls: lookups, repeat: 1000 }] },
    { match: 'promise me', replies: [{ content: 'Your refund is GUARANTEED by Friday.' }, { content: 'Your refund is on its way.' }] },
    {
      match: 'grow the transcript',
      replies: [{ toolCalls: [{ id: 'g1', name: 'read_data', arguments: { table: 'refunds' } }] }, { content: 'Grown.' }],
    },
    { match: 'moderate me', replies: [{ content: 'Thanks for writing to us.' }] },
  ],
};

let h: Harness;
let large: ModelServer;
beforeAll(async () => {
  large = await startModelServer({ script });
  const agents = {
    longtalk: defineAgent({
      name: 'longtalk',
      instructions: 'You look things up, a lot.',
      tools: ['read_data'],
      maxSteps: 17,
      beforeModel: { hook: 'trimMessages', options: { maxTokens: BUDGET } },
    }),
    guarded: defineAgent({
      name: 'guarded',
      instructions: 'Be careful.',
      tools: [],
      afterModel: { hook: 'blockPhrases', options: { phrases: ['guaranteed'] } },
    }),
    strict: defineAgent({
      name: 'strict',
      instructions: 'Be careful.',
      tools: [],
      afterModel: { hook: 'blockPhrases', options: { phrases: ['guaranteed'], action: 'stop' } },
    }),
    grows: defineAgent({
      name: 'grows',
      instructions: 'You grow.',
      tools: ['read_data'],
      modelSelector: { selector: 'bySize', options: { atLeast: { messages: 4 }, large: { model: 'gpt-4.1', baseURL: large.baseURL } } },
    }),
    moderated: defineAgent({
      name: 'moderated',
      instructions: 'Answer the customer.',
      tools: [],
      beforeModel: { activity: 'redactEmails' },
      afterModel: { activity: 'signOff', options: { signature: '— the shop' } },
    }),
    broken: defineAgent({ name: 'broken', instructions: 'x', tools: [], afterModel: { activity: 'answersNonsense' } }),
    unregistered: defineAgent({ name: 'unregistered', instructions: 'x', tools: [], afterModel: { activity: 'notOnThisWorker' } }),
  };
  h = await startHarness({
    agents,
    script,
    modelHooks: {
      beforeModel: {
        // A hook that needs I/O in real life (a PII service); here it redacts email addresses.
        redactEmails: ({ messages }) =>
          messages.map((m) => (m.role === 'user' ? { ...m, content: m.content.replace(/\S+@\S+/g, '[email]') } : m)),
      },
      afterModel: {
        signOff: async ({ reply }, options) =>
          reply.toolCalls.length
            ? { action: 'accept' }
            : { action: 'replace', reply: { content: `${reply.content} ${(options as { signature: string }).signature}` } },
        answersNonsense: () => ({ action: 'maybe' }) as never,
      },
    },
  });
});
afterAll(async () => {
  await h?.close();
  await large?.close();
});

/** The messages each model activity was scheduled with, from history: what the model was sent, as recorded. */
async function recordedModelInputs(handle: WorkflowHandle): Promise<ChatMessage[][]> {
  const events = (await handle.fetchHistory()).events ?? [];
  // Each call carries what follows the messages of the call before it (src/contract/message-chain.ts).
  return sentMessagesOf(
    events
      .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel')
      .map(
        (e) =>
          defaultPayloadConverter.fromPayload(e.activityTaskScheduledEventAttributes!.input!.payloads![0]! as never) as ModelCallMessages,
      ),
  );
}

describe('beforeModel', () => {
  it('trims a 500-message transcript to a token budget for the model, keeping the recorded transcript whole', async () => {
    const handle = await h.start({ agent: 'longtalk', prompt: 'Have a long conversation about lost orders' });
    expect(await handle.result()).toMatchObject({ status: 'MaxSteps', steps: 17 });

    const state = await handle.query(runStateQuery);
    expect(state.messagesFrom).toBe(0);
    expect(state.messages.length).toBeGreaterThanOrEqual(500);

    const sent = await recordedModelInputs(handle);
    expect(sent).toHaveLength(17);
    const last = sent.at(-1)!;
    const tokens = last.reduce((n, m) => n + approximateTokens(m), 0);
    expect(tokens).toBeLessThanOrEqual(BUDGET);
    expect(last.length).toBeLessThan(150);
    // The transcript when the last call went out: all but that step's call and answers and the closing message.
    const transcript = state.messages.slice(0, -(1 + 32 + 1));
    // The task stays, then the newest messages, each call with all its answers.
    expect(last.slice(0, 2)).toEqual(transcript.slice(0, 2));
    expect(last.slice(2)).toEqual(transcript.slice(transcript.length - (last.length - 2)));
    expect(last[2]!.role).toBe('assistant');
    // What went out is what the model server received, request by request.
    expect(
      h.model
        .completions()
        .filter((r) => JSON.stringify(r.messages).includes('long conversation'))
        .map((r) => r.messages),
    ).toEqual(sent);
    expect(state.modelCalls!.at(-1)).toMatchObject({
      step: 17,
      model: 'scripted-model',
      sent: { messages: last.length, of: transcript.length },
    });
  });

  it('runs a hook that needs I/O as an activity, recorded in history', async () => {
    const handle = await h.start({ agent: 'moderated', prompt: 'Please moderate me: I am ann@example.com' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'Thanks for writing to us. — the shop' });
    const [sent] = await recordedModelInputs(handle);
    expect(sent![1]).toEqual({ role: 'user', content: 'Please moderate me: I am [email]' });
    const state = await handle.query(runStateQuery);
    expect(state.messages[1]).toEqual({ role: 'user', content: 'Please moderate me: I am ann@example.com' });
    expect(state.modelCalls![0]).toMatchObject({ verdict: { action: 'replace', by: 'afterModel' } });
    expect(await activitySummaries(handle)).toEqual([
      'beforeModel redactEmails · step 1',
      'model scripted-model · step 1',
      'afterModel signOff · step 1',
    ]);
  });
});

describe('afterModel', () => {
  it('makes the model retry with a reason (a guardrail), and the model sees what it said and why', async () => {
    const handle = await h.start({ agent: 'guarded', prompt: 'Please promise me a refund' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'Your refund is on its way.', steps: 2 });
    const reason = 'Your reply contained "guaranteed", which is not allowed. Answer again without it.';
    const state = await handle.query(runStateQuery);
    expect(state.messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Your refund is GUARANTEED by Friday.' },
      { role: 'user', content: reason },
      { role: 'assistant', content: 'Your refund is on its way.' },
    ]);
    expect(state.modelCalls!.map((c) => c.verdict)).toEqual([{ action: 'retry', by: 'afterModel', reason }, undefined]);
    const [, second] = await recordedModelInputs(handle);
    expect(second!.at(-1)).toEqual({ role: 'user', content: reason });
  });

  it('stops the run', async () => {
    const handle = await h.start({ agent: 'strict', prompt: 'Please promise me a refund' });
    expect(await handle.result()).toMatchObject({ status: 'Stopped', output: 'The reply was withheld: it contained "guaranteed".' });
    expect((await handle.describe()).typedSearchAttributes.get(HitlStatus)).toBe('Stopped');
  });

  it('fails the run, naming the hook, when a hook answers something that is not a verdict or is not registered', async () => {
    const nonsense = await (await h.start({ agent: 'broken', prompt: 'Please moderate me' })).result().catch((e) => e);
    expect(nonsense).toBeInstanceOf(WorkflowFailedError);
    expect(nonsense.cause).toMatchObject({ type: 'ModelHookError' });
    expect(nonsense.cause.message).toMatch(/^The afterModel hook "answersNonsense" failed: it returned no valid verdict/);

    const missing = await (await h.start({ agent: 'unregistered', prompt: 'Please moderate me' })).result().catch((e) => e);
    expect(missing.cause).toMatchObject({ type: 'ModelHookError' });
    expect(missing.cause.message).toBe(
      'The afterModel hook "notOnThisWorker" failed: no activity hook of that name is registered on this worker (modelHooks)',
    );
  });
});

describe('a dynamic model', () => {
  it('chooses the model and its endpoint per call from the transcript size, shown in runState and the UI', async () => {
    const handle = await h.start({ agent: 'grows', prompt: 'Please grow the transcript' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'Grown.' });
    const state = await handle.query(runStateQuery);
    expect(state.modelCalls).toEqual([
      { step: 1, model: 'scripted-model' },
      { step: 2, model: 'gpt-4.1', baseURL: large.baseURL },
    ]);
    expect(large.completions().map((r) => [r.model, r.messages.length])).toEqual([['gpt-4.1', 4]]);
    expect(await activitySummaries(handle)).toEqual(['model scripted-model · step 1', 'tool read_data', 'model gpt-4.1 · step 2']);
  });

  it('refuses an unknown hook or selector, or bad options, when the agent is defined', () => {
    expect(() => defineAgent({ name: 'x', instructions: 'x', tools: [], beforeModel: 'trimMessage' })).toThrow(
      /beforeModel: no hook "trimMessage" in src\/hooks\/model-hooks.ts \(known: trimMessages\)/,
    );
    expect(() =>
      defineAgent({ name: 'x', instructions: 'x', tools: [], beforeModel: { hook: 'trimMessages', options: { maxTokens: 2 } } }),
    ).toThrow(/beforeModel.options.maxTokens: Too small/);
    expect(() => defineAgent({ name: 'x', instructions: 'x', tools: [], modelSelector: { selector: 'bySize', options: {} } })).toThrow(
      /modelSelector.options.atLeast/,
    );
  });
});
