/**
 * A worker of someone else's workflows (test/fixtures/), on a task queue of its own on the harness's server: what a
 * user's own code looks like to ours, for the tests where such a workflow starts ours as its child.
 */
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Worker } from '@temporalio/worker';
import type { Harness } from './harness.js';
import { uniqueName } from './temporal.js';

export async function foreignWorker(h: Harness, fixture: string): Promise<{ worker: Worker; taskQueue: string }> {
  const { code } = await bundleWorkflowCode({ workflowsPath: path.resolve('test/fixtures', fixture), logger: new DefaultLogger('WARN') });
  const taskQueue = uniqueName('foreign');
  const worker = await Worker.create({
    connection: h.temporal.nativeConnection,
    namespace: h.temporal.namespace,
    taskQueue,
    workflowBundle: { code },
  });
  return { worker, taskQueue };
}
