/**
 * A run whose model API is down looks busy, not broken: Temporal retries the model call with backoff and the run
 * sees nothing until the last attempt fails. `hitl show` and GET /api/runs/{id} say what it is retrying, the
 * attempt and the newest failure, read from Temporal's description of the run; once the model answers again, the
 * run goes on and the notice is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HitlClient } from '../src/client/hitl-client.js';
import type { Listening } from '../src/api/listen.js';
import { startModelServer, type ModelServer } from '../src/model-server/server.js';
import type { ModelScriptInput } from '../src/model-server/script-schema.js';
import { startTestApi } from './helpers/api.js';
import { runHitl } from './helpers/cli.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';

const TOKEN = 'alice-retrying-token-0123456789';
const script: ModelScriptInput = { conversations: [{ match: 'retrying model', replies: [{ content: 'answered at last' }] }] };

let h: Harness;
let hitl: HitlClient;
let api: Listening;
/** The model server that comes back on the first one's port. */
let revived: ModelServer | undefined;

beforeAll(async () => {
  // The harness's model server, closed before any run: its port refuses every model call until the test revives it.
  const down = await startModelServer({ script });
  await down.close();
  h = await startHarness({ model: { ...down, close: async () => revived?.close() } });
  hitl = new HitlClient(h.temporal.client, h.taskQueue);
  api = await startTestApi(h, { hitl, tokens: { [TOKEN]: { approver: 'alice', groups: ['finance'] } } });
}, 300_000);
afterAll(async () => {
  await api?.close();
  await h?.close();
});

describe('an activity that keeps failing', () => {
  it('shows in show and the HTTP API with its attempt and failure, and goes once the model answers', { timeout: 120_000 }, async () => {
    const { workflowId } = await hitl.startRun({ agent: 'demo', prompt: 'retrying model' });
    await waitFor(async () => ((await hitl.getRun(workflowId)).retrying?.[0]?.attempt ?? 0) >= 2, 30_000, 'a retried model call');

    const { retrying } = await hitl.getRun(workflowId);
    expect(retrying).toHaveLength(1);
    expect(retrying![0]).toMatchObject({ activity: 'callModel', maximumAttempts: 10 });
    expect(retrying![0]!.lastFailure).toMatch(/^Could not reach the model API/);

    const shown = await runHitl(h, ['show', workflowId]);
    expect(shown.stdout).toMatch(
      /^Retrying the model call: attempt \d+ of 10(, next at \S+)?\. Last failure: Could not reach the model API/m,
    );

    const response = await fetch(`${api.url}/api/runs/${workflowId}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    const view = (await response.json()) as { status: string; retrying?: { activity: string; attempt: number }[] };
    expect(view.status).toBe('Running');
    expect(view.retrying?.[0]?.activity).toBe('callModel');

    revived = await startModelServer({ script, port: h.model.port });
    expect(revived.baseURL).toBe(h.model.baseURL);
    expect(await hitl.result(workflowId)).toMatchObject({ status: 'Completed', output: 'answered at last' });
    expect((await hitl.getRun(workflowId)).retrying).toBeUndefined();
    expect((await runHitl(h, ['show', workflowId])).stdout).not.toContain('Retrying');
  });
});
