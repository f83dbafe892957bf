/**
 * The store across runs (LangGraph's `store` / `InjectedStore`): one entity workflow per namespace, written by
 * updates and read by queries. Two runs share it through the memory tools; refused writes change nothing and leave
 * no trace in history; a namespace continues as new with its items.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../src/agents/define-agent.js';
import { storePutUpdate, storeWorkflowId, STORE_WORKFLOW_TYPE } from '../src/contract/store.js';
import { StoreRefusedError } from '../src/errors.js';
import { AgentStore } from '../src/store/agent-store.js';
import type { StoreWriteResult } from '../src/schemas/store.js';
import { toolMessages } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';

const memo = defineAgent({
  name: 'memo',
  instructions: 'You remember what users tell you.',
  tools: ['remember', 'recall'],
  contextSchema: z.object({ userId: z.string().min(1) }),
});

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
// Unique per test run, so a namespace never holds another run's items.
const alice = `alice-${randomUUID().slice(0, 8)}`;
const bob = `bob-${randomUUID().slice(0, 8)}`;

let h: Harness;
let store: AgentStore;
beforeAll(async () => {
  h = await startHarness({
    agents: { memo },
    script: {
      conversations: [
        {
          match: 'I drink tea',
          replies: [{ toolCalls: [call('m1', 'remember', { key: 'favorite_drink', fact: 'tea, no sugar' })] }, { content: 'Noted.' }],
        },
        { match: 'what do I drink', replies: [{ toolCalls: [call('r1', 'recall', {})] }, { content: 'Tea, no sugar.' }] },
      ],
    },
  });
  store = new AgentStore(h.temporal.client, h.taskQueue);
});
afterAll(() => h?.close());

describe('the store across runs', () => {
  it('is shared by two runs: one remembers, a later one recalls, another user sees nothing', async () => {
    const first = await h.start({ agent: 'memo', prompt: 'I drink tea', context: { userId: alice } });
    expect(await first.result()).toMatchObject({ status: 'Completed', output: 'Noted.' });
    expect(await toolMessages(first)).toEqual([['m1', 'Remembered favorite_drink (version 1).']]);

    const second = await h.start({ agent: 'memo', prompt: 'Tell me, what do I drink?', context: { userId: alice } });
    expect(await second.result()).toMatchObject({ status: 'Completed', output: 'Tea, no sugar.' });
    expect(await toolMessages(second)).toEqual([['r1', JSON.stringify({ favorite_drink: { fact: 'tea, no sugar' } })]]);

    const other = await h.start({ agent: 'memo', prompt: 'Tell me, what do I drink?', context: { userId: bob } });
    await other.result();
    expect(await toolMessages(other)).toEqual([['r1', 'Nothing is remembered yet.']]);

    // Outside a run (a service, a test): the same item, with who wrote it.
    expect(await store.get(['memories', alice], 'favorite_drink')).toMatchObject({
      value: { fact: 'tea, no sugar' },
      version: 1,
      writtenBy: `${first.workflowId}:call-1`,
    });
  });

  it('refuses a stale version, a malformed write and an oversized value, changing nothing and recording nothing', async () => {
    const namespace = ['notes', randomUUID()];
    expect(await store.put(namespace, 'plan', { step: 1 })).toEqual({ version: 1, existed: false });
    expect(await store.put(namespace, 'plan', { step: 2 }, { ifVersion: 1 })).toEqual({ version: 2, existed: true });

    const stale = await store.put(namespace, 'plan', { step: 3 }, { ifVersion: 1 }).catch((err: unknown) => err);
    expect(stale).toBeInstanceOf(StoreRefusedError);
    expect(stale).toMatchObject({ code: 'version_conflict' });
    const tooBig = await store.put(namespace, 'big', 'x'.repeat(70 * 1024)).catch((err: unknown) => err);
    expect(tooBig).toMatchObject({ code: 'malformed', message: expect.stringContaining('the limit is 65536') });

    // A raw update from any client (not through AgentStore): an empty key and an unknown field.
    const handle = h.temporal.client.workflow.getHandle(storeWorkflowId(namespace));
    for (const raw of [{ key: '', value: 1 }, { key: 'x', value: 1, admin: true }, null]) {
      await expect(handle.executeUpdate(storePutUpdate, { args: [raw as never] })).rejects.toThrow();
    }
    expect(await store.get(namespace, 'plan')).toMatchObject({ value: { step: 2 }, version: 2 });
    expect((await store.list(namespace)).items.map((i) => i.key)).toEqual(['plan']);
    // Validators refuse before acceptance: only the two accepted writes are in history.
    const { events } = await handle.fetchHistory();
    expect(events!.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes).length).toBe(2);
  });

  it('takes 400 concurrent writes to one namespace: none is lost, each lands once', { timeout: 240_000 }, async () => {
    // Far more writers than Temporal admits updates in flight (10), for longer than the client's own retries last:
    // writes wait their turn instead of failing.
    const namespace = ['busy', randomUUID()];
    const keys = Array.from({ length: 400 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    const written = await Promise.allSettled(keys.map((key, i) => store.put(namespace, key, i)));
    expect(written.filter((w) => w.status === 'rejected').map((w) => String((w as PromiseRejectedResult).reason))).toEqual([]);
    const results = written.map((w) => (w as PromiseFulfilledResult<StoreWriteResult>).value);
    // Versions count the namespace's writes: 400 writes, 400 versions, none repeated or skipped.
    expect(results.every((r) => !r.existed)).toBe(true);
    expect(results.map((r) => r.version).sort((a, b) => a - b)).toEqual(keys.map((_, i) => i + 1));
    const { items } = await store.list(namespace, { limit: 1000 });
    expect(items.map((i) => [i.key, i.value, i.version])).toEqual(keys.map((key, i) => [key, i, results[i]!.version]));
  });

  it('continues as new with its items before its history grows long', async () => {
    const namespace = ['many', randomUUID()];
    const workflowId = storeWorkflowId(namespace);
    const { runId: firstRunId } = await h.temporal.client.workflow
      .start(STORE_WORKFLOW_TYPE, { workflowId, taskQueue: h.taskQueue, args: [{ namespace, maxEvents: 20 }] })
      .then((handle) => ({ runId: handle.firstExecutionRunId }));
    for (let i = 0; i < 12; i++) await store.put(namespace, `k${String(i).padStart(2, '0')}`, i);
    const { items } = await store.list(namespace, { limit: 5 });
    expect(items.map((i) => [i.key, i.value])).toEqual([0, 1, 2, 3, 4].map((i) => [`k0${i}`, i]));
    expect(await store.get(namespace, 'k11')).toMatchObject({ value: 11, version: 12 });
    expect((await h.temporal.client.workflow.getHandle(workflowId).describe()).runId).not.toBe(firstRunId);
  });
});
