/**
 * The cross-language protocol: a Python subscriber (scripts/python/watch_run.py, on temporalio's
 * `contrib.workflow_streams` from PyPI, pinned in scripts/python/requirements.txt) follows a run of the TypeScript
 * workflow live, and reads exactly the items the TypeScript client reads.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HitlClient } from '../src/client/hitl-client.js';
import { decide } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { modelCallRunning } from './helpers/stream.js';

const ANSWER = 'Python reads the same stream: every event and every piece of text, at the offsets TypeScript sees them. ';
const write = { id: 'w', name: 'write_file', arguments: { path: 'py.txt', content: 'x' } };

let h: Harness;
let python: string;
beforeAll(async () => {
  // A virtualenv with temporalio from PyPI, made once (CI makes it before the tests).
  python = (await promisify(execFile)('bash', ['scripts/python/venv.sh'], { timeout: 600_000 })).stdout.trim();
  h = await startHarness({
    streaming: { batchIntervalMs: 100 },
    script: {
      conversations: [{ match: 'from python', replies: [{ toolCalls: [write] }, { content: ANSWER, chunkSize: 5, chunkDelayMs: 60 }] }],
    },
  });
}, 600_000);
afterAll(() => h?.close());

interface Line {
  offset: number;
  topic: string;
  data: Record<string, unknown>;
}

/** Runs the Python subscriber to the run's end; `onItem` sees each item as it is printed. */
function watchFromPython(
  workflowId: string,
  onItem: (item: Line) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; items: Line[]; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(python, [
      'scripts/python/watch_run.py',
      workflowId,
      '--address',
      h.temporal.address,
      '--namespace',
      h.temporal.namespace,
    ]);
    const items: Line[] = [];
    let pending = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      pending += chunk;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const item = JSON.parse(pending.slice(0, end)) as Line;
        pending = pending.slice(end + 1);
        items.push(item);
        onItem(item);
      }
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code, signal) => resolve({ code, signal, items, stderr }));
  });
}

describe('a Python subscriber', () => {
  it('follows the run live and reads the same items as the TypeScript client', { timeout: 120_000 }, async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'a run watched from python' });
    let decided: Promise<unknown> | undefined;
    let runningAtFirstToken: Promise<boolean> | undefined;
    const watched = await watchFromPython(handle.workflowId, (item) => {
      // Python has the approval request: let the run go on to the step whose text streams.
      if (!decided && item.data.type === 'approval_requested') {
        decided = decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'py' });
      }
      if (item.topic === 'tokens' && !runningAtFirstToken) runningAtFirstToken = modelCallRunning(handle);
    });
    expect(watched.stderr).toBe('');
    // A signal here was the SDK's runtime threads crashing the interpreter's shutdown (watch_run.py exits before it).
    expect({ code: watched.code, signal: watched.signal }).toEqual({ code: 0, signal: null });
    await decided;
    expect(await runningAtFirstToken).toBe(true);

    const fromTypeScript = [];
    for await (const item of new HitlClient(h.temporal.client, h.taskQueue).subscribe(handle.workflowId)) {
      fromTypeScript.push({ offset: item.offset, topic: item.topic, data: item.topic === 'events' ? item.event : item.token });
    }
    expect(watched.items).toEqual(fromTypeScript);
    expect(
      watched.items
        .filter((i) => i.topic === 'tokens')
        .map((i) => i.data.text)
        .join(''),
    ).toBe(ANSWER);
    expect(watched.items.at(-1)?.data).toMatchObject({ type: 'run_finished', output: ANSWER });
  });
});
