/**
 * Found by hand: `npm start` with HITL_DEV_UI_PORT set served the Temporal UI there, but the API linked every run
 * to the default port (`temporalUiUrl` in POST /api/runs and the approvals). A real `npm start`, as a user runs it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ctrlC, freePorts, killAll, npmStart } from './helpers/npm-start.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hitl-hand-trials-'));
afterAll(() => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

it('links runs to the Temporal UI on the port npm start gave it', { timeout: 300_000 }, async () => {
  const ports = await freePorts();
  const started = await npmStart(dir, ports);
  const response = await fetch(`http://127.0.0.1:${ports.api}/api/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${started.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ agent: 'demo', prompt: 'Cancel order 42' }),
  });
  expect(response.status).toBe(201);
  const { workflowId, temporalUiUrl } = (await response.json()) as { workflowId: string; temporalUiUrl: string };
  expect(started.output()).toContain(`Temporal UI   http://localhost:${ports.ui}`);
  expect(temporalUiUrl).toBe(`http://localhost:${ports.ui}/namespaces/default/workflows/${workflowId}`);
  await ctrlC(started.child);
});
