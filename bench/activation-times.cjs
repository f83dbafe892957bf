/**
 * Preloaded (`node --require`) into the bench's worker process and, through it, into the SDK's workflow threads when
 * BENCH_ACTIVATION_TIMES_FILE is set (`npm run bench:decision -- --activation-times`): it times every workflow
 * activation that holds an update, where it runs, and appends one line per activation to that file.
 *
 *   sandbox <runId> <µs> <promises>   in a workflow thread: the SDK's activate() of the run's sandbox, and how many
 *                                     promises were made meanwhile (the SDK's promise hook captures a stack for each)
 *   worker <taskQueue> <runId> <µs>   on the main thread: the worker's whole handling of the activation (decoding,
 *                                     the sandbox, its sink calls, encoding the completion)
 *
 * bench/activation-times.ts reads the file. CommonJS because node loads it before tsx, in every thread.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const { isMainThread } = require('node:worker_threads');

const out = process.env.BENCH_ACTIVATION_TIMES_FILE;
const sdk = (file) => require(path.join(process.cwd(), 'node_modules', '@temporalio', 'worker', 'lib', file));
const holdsUpdate = (activation) => (activation.jobs ?? []).some((job) => job.doUpdate);
const microseconds = (since) => Number(process.hrtime.bigint() - since) / 1000;

if (out && isMainThread) {
  const { Worker } = sdk('worker.js');
  const handle = Worker.prototype.handleActivation;
  Worker.prototype.handleActivation = async function (workflow, request) {
    const timed = holdsUpdate(request.activation);
    const start = process.hrtime.bigint();
    try {
      return await handle.call(this, workflow, request);
    } finally {
      if (timed) fs.appendFileSync(out, `worker ${this.options.taskQueue} ${request.activation.runId} ${microseconds(start)}\n`);
    }
  };
} else if (out) {
  let counting = false;
  let promises = 0;
  v8.promiseHooks.onInit(() => {
    if (counting) promises++;
  });
  const { BaseVMWorkflow } = sdk('workflow/vm-shared.js');
  const activate = BaseVMWorkflow.prototype.activate;
  BaseVMWorkflow.prototype.activate = async function (activation) {
    const timed = holdsUpdate(activation);
    const start = process.hrtime.bigint();
    counting = timed;
    promises = 0;
    try {
      return await activate.call(this, activation);
    } finally {
      counting = false;
      if (timed) fs.appendFileSync(out, `sandbox ${activation.runId} ${microseconds(start)} ${promises}\n`);
    }
  };
}
