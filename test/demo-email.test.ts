/**
 * The demo's own suggestion, "Email Ada about her refund", end to end with the demo agent and the demo script: the
 * model calls send_email, whose arguments the workflow validates with the tool's zod schema (z.email() among them),
 * the refund subject makes the call wait for a human, and once approved the email goes out and the run completes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SCRIPT_PATH } from '../src/demo/offline-model.js';
import { decide, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ script: JSON.parse(readFileSync(DEMO_SCRIPT_PATH, 'utf8')) });
});
afterAll(() => h?.close());

describe('the demo agent', () => {
  it('emails Ada about her refund once a human approves the gated email', async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'Email Ada about her refund' });

    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({
      toolName: 'send_email',
      args: { to: 'ada@example.com', subject: 'About your refund', body: 'Your refund is on its way.' },
    });
    await decide(handle, { decisions: [{ id: pending!.id, type: 'approve', argsHash: pending!.argsHash }], approver: 'alice' });

    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'The email is handled.' });
    const outbox = readFileSync(path.join(h.dataDir, 'outbox.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(outbox).toEqual([
      expect.objectContaining({ to: 'ada@example.com', subject: 'About your refund', body: 'Your refund is on its way.' }),
    ]);
  });
});
