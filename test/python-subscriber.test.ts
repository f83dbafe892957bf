/**
 * The cross-language protocol: a Python subscriber (scripts/python/watch_run.py, on temporalio's
 * `contrib.workflow_streams` from PyPI, pinned in scripts/python/requirements.txt) follows a run of the TypeScript
 * workflow live, and reads exactly the items the TypeScript client reads.
 */
import { execFile, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HitlClient } from '../src/client/hitl-client.js';
import { decide, waitForPending } from './helpers/decisions.js';
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

/** Runs a Python subscriber script to the run's end; `onItem` sees each item as it is printed. */
function watchFromPython(
  workflowId: string,
  onItem: (item: Line) => void,
  script = 'scripts/python/watch_run.py',
): Promise<{ code: number | null; signal: NodeJS.Signals | null; items: Line[]; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(python, [script, workflowId, '--address', h.temporal.address, '--namespace', h.temporal.namespace]);
    const items: Line[] = [];
    let pending = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      pending += chunk;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        // Printed as `hitl --json watch` prints it: the value under `event` or `token`, by topic.
        const printed = JSON.parse(pending.slice(0, end)) as Omit<Line, 'data'> & { event?: Line['data']; token?: Line['data'] };
        const item: Line = {
          offset: printed.offset,
          topic: printed.topic,
          data: (printed.topic === 'tokens' ? printed.token : printed.event)!,
        };
        pending = pending.slice(end + 1);
        items.push(item);
        onItem(item);
      }
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code, signal) => resolve({ code, signal, items, stderr }));
  });
}

/** What the TypeScript client reads of the run, as the Python scripts print it. */
async function readFromTypeScript(workflowId: string): Promise<Line[]> {
  const items: Line[] = [];
  for await (const item of new HitlClient(h.temporal.client, h.taskQueue).subscribe(workflowId)) {
    items.push({ offset: item.offset, topic: item.topic, data: item.topic === 'events' ? item.event : item.token });
  }
  return items;
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

    expect(watched.items).toEqual(await readFromTypeScript(handle.workflowId));
    expect(
      watched.items
        .filter((i) => i.topic === 'tokens')
        .map((i) => i.data.text)
        .join(''),
    ).toBe(ANSWER);
    expect(watched.items.at(-1)?.data).toMatchObject({ type: 'run_finished', output: ANSWER });
  });

  it('ends with the run even when no poll is answered, and reads it all by query', { timeout: 120_000 }, async () => {
    // test/python/lost_poll_watch.py runs watch_run.py's `watch` through a client that drops every poll's answer.
    const handle = await h.start({ agent: 'demo', prompt: 'a run watched from python, no poll answered' });
    let endedAt = 0;
    const watching = watchFromPython(handle.workflowId, () => {}, 'test/python/lost_poll_watch.py').then((watched) => {
      endedAt = Date.now();
      return watched;
    });
    await waitForPending(handle, 1);
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'py' });
    await handle.result();
    const closedAt = Date.now();
    const watched = await watching;
    expect(watched.stderr).toBe('');
    expect({ code: watched.code, signal: watched.signal }).toEqual({ code: 0, signal: null });
    expect(endedAt - closedAt).toBeLessThan(10_000);
    expect(watched.items).toEqual(await readFromTypeScript(handle.workflowId));
    expect(watched.items.at(-1)?.data).toMatchObject({ type: 'run_finished', output: ANSWER });
  });

  it('ends with a canceled run whose poll was waiting when the cancel came', { timeout: 120_000 }, async () => {
    const handle = await h.start({ agent: 'demo', prompt: 'a run watched from python, then canceled' });
    let canceled: Promise<unknown> | undefined;
    const watched = await watchFromPython(handle.workflowId, (item) => {
      // Python has the approval request; its next poll waits on the run, and the cancel fails it.
      if (!canceled && item.data.type === 'approval_requested') {
        canceled = sleep(1000).then(() => new HitlClient(h.temporal.client, h.taskQueue).cancel(handle.workflowId));
      }
    });
    await canceled;
    expect(watched.stderr).toBe('');
    expect({ code: watched.code, signal: watched.signal }).toEqual({ code: 0, signal: null });
    expect(watched.items).toEqual(await readFromTypeScript(handle.workflowId));
    expect(watched.items.at(-1)?.data).toEqual({ type: 'run_failed', status: 'Canceled' });
  });
});
