/**
 * What trying the API and the CLI by hand found, against the real API, CLI, worker and dev server: the OpenAPI
 * document is served (a recursive schema once made it answer 500 with `{}`); `Last-Event-ID` is read as the ids
 * we send (decimal digits; an empty one is no id, not offset 0); and a run whose own policy would loosen its
 * agent's is refused when it is asked for, instead of started to fail at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listening } from '../src/api/listen.js';
import { agents } from '../src/agents/registry.js';
import { startTestApi } from './helpers/api.js';
import { runHitl } from './helpers/cli.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { itemsOf, readSse } from './helpers/sse.js';

const TOKEN = 'hand-trials-token-0123456789';

let h: Harness;
let api: Listening;
beforeAll(async () => {
  h = await startHarness({ script: { conversations: [{ match: 'hand trial', replies: [{ content: 'Done by hand.' }] }] } });
  api = await startTestApi(h, { tokens: { [TOKEN]: { approver: 'hana', groups: [] } }, agents });
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

describe('the OpenAPI document', () => {
  it('is served, with the recursive `when` condition as a named schema that refers to itself', async () => {
    const response = await fetch(`${api.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    expect(doc.paths).toHaveProperty(['/api/runs']);
    expect(JSON.stringify(doc.components.schemas.Condition)).toContain('"$ref":"#/components/schemas/Condition"');
  });
});

describe('GET /api/runs/:id/events and Last-Event-ID', () => {
  let workflowId: string;
  let end: number;
  beforeAll(async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'hand trial' });
    await handle.result();
    workflowId = handle.workflowId;
    const whole = await readSse(url(), { token: TOKEN });
    end = itemsOf(whole.events).length;
    expect(end).toBeGreaterThan(1);
  });
  const url = (query = '') => `${api.url}/api/runs/${encodeURIComponent(workflowId)}/events${query}`;
  const openedAt = async (options: { lastEventId?: string; query?: string }) => {
    const read = await readSse(url(options.query), {
      token: TOKEN,
      ...(options.lastEventId !== undefined && { lastEventId: options.lastEventId }),
    });
    return read.status === 200 ? JSON.parse(read.events[0]!.data).from : read;
  };

  it('takes an empty Last-Event-ID as no id: the stream starts at the beginning, event 0 included', async () => {
    expect(await openedAt({ lastEventId: '' })).toBe(0);
    expect(await openedAt({ lastEventId: '', query: '?from=1' })).toBe(1);
    expect(await openedAt({ lastEventId: '0' })).toBe(1);
  });

  it('refuses ids and offsets that are not decimal digits, with a typed 400', async () => {
    for (const lastEventId of ['0x1', '1e0', '-1', '1.5', 'abc', '9'.repeat(40)]) {
      expect(await openedAt({ lastEventId }), lastEventId).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    }
    for (const from of ['0x1', '1e0', '-1']) {
      expect(await openedAt({ query: `?from=${from}` }), from).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    }
    expect(await openedAt({ lastEventId: String(end + 5) })).toMatchObject({ status: 400, body: { error: { code: 'invalid_offset' } } });
  });
});

describe('a run whose own policy would loosen its agent’s', () => {
  const loosening = { tools: { process_refund: { approvers: ['finance', 'support'] } } };
  const demoRuns = async () => {
    let count = 0;
    for await (const _ of h.temporal.client.workflow.list({ query: `TaskQueue = '${h.taskQueue}'` })) count++;
    return count;
  };
  let before: number;
  beforeAll(async () => {
    before = await demoRuns();
  });

  it('is refused by POST /api/runs with a typed 400', async () => {
    const response = await fetch(`${api.url}/api/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'demo', prompt: 'hand trial', approval: loosening }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_run_input');
    expect(body.error.message).toContain('tools.process_refund.approvers: the agent allows only finance, not support');
    // A start the API refuses: its status and message.
    const refusal = async (run: Record<string, unknown>) => {
      const refused = await fetch(`${api.url}/api/runs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ agent: 'demo', prompt: 'hand trial', ...run }),
      });
      return [refused.status, ((await refused.json()) as { error: { message: string } }).error.message];
    };
    // An entry that names no one would lock the tool for the run: refused too, saying why.
    expect(await refusal({ approval: { tools: { process_refund: { approvers: ['group: finance'] } } } })).toEqual([
      400,
      expect.stringContaining('approval.tools.process_refund.approvers.0: "group: finance" names no one'),
    ]);
    // So would a breakpoint's: no one could ever let the run go on.
    expect(await refusal({ interrupt: { beforeTools: { approvers: ['group:'] } } })).toEqual([
      400,
      expect.stringContaining('interrupt.beforeTools.approvers.0: "group:" names no one'),
    ]);
    // And a quorum larger than the people it names (a tightening, by its shape): no call could ever run.
    expect(await refusal({ approval: { tools: { process_refund: { approvers: ['user:finance'], requiredApprovals: 2 } } } })).toEqual([
      400,
      'Invalid agentWorkflow input: approval.tools.process_refund: needs 2 approvals, but only user:finance may give them: no call it gates could ever run',
    ]);
    // And a predicate given an option it does not take: every call it judges would fail closed, the model blamed.
    const domains = { predicate: 'externalRecipient', options: { domains: 'notalist' } };
    expect(await refusal({ approval: { tools: { send_email: { when: { any: [domains, { arg: 'to', op: 'exists' }] } } } } })).toEqual([
      400,
      'Invalid agentWorkflow input: approval.tools.send_email.when.any.0.options.domains: expected an array of strings (domains such as `shop.com`)',
    ]);
    // Or a breakpoint only the requester (hana, this token) may let go on, under four eyes.
    expect(await refusal({ approval: { fourEyes: true }, interrupt: { beforeTools: { approvers: ['user:hana'] } } })).toEqual([
      400,
      'Invalid agentWorkflow input: interrupt.beforeTools: only hana, the requester, may let the run go on, and may not under four eyes: it could only be rejected',
    ]);
  });

  it('is refused by hitl start with a usage exit code; of these attempts, only the tightening one starts a run', async () => {
    const result = await runHitl(h, ['start', '--agent', 'demo', '--approval', JSON.stringify(loosening), 'hand trial']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('tools.process_refund.approvers: the agent allows only finance, not support');
    const noOne = await runHitl(h, [
      'start',
      '--agent',
      'demo',
      '--interrupt',
      '{"beforeTools":{"approvers":["group: ops"]}}',
      'hand trial',
    ]);
    expect([noOne.code, noOne.stderr]).toEqual([
      2,
      expect.stringContaining('interrupt.beforeTools.approvers.0: "group: ops" names no one'),
    ]);
    const tightening = { tools: { process_refund: { approvers: ['finance'], requiredApprovals: 2 } } };
    const started = await runHitl(h, ['start', '-q', '--agent', 'demo', '--approval', JSON.stringify(tightening), 'hand trial']);
    expect(started.code).toBe(0);
    expect(await h.temporal.client.workflow.getHandle(started.stdout.trim()).result()).toMatchObject({ status: 'Completed' });
    // Listed once the tightening run is, the refused ones would be too (they were asked for first).
    await expect.poll(demoRuns, { timeout: 30_000 }).toBeGreaterThan(before);
    expect(await demoRuns()).toBe(before + 1);
  });
});
