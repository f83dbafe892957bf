/**
 * A real worker on its own task queue against the suite's dev server, the real `openai` client, a scripted model
 * server and a fresh data directory for the demo tools.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import type { ActivityDeps } from '../../src/activities/index.js';
import { agents as registeredAgents, type AgentRegistry } from '../../src/agents/registry.js';
import { startModelServer, type ModelServer } from '../../src/model-server/server.js';
import type { ModelScriptInput } from '../../src/model-server/script-schema.js';
import type { AgentWorkflowArgs } from '../../src/schemas/agent-workflow-input.js';
import type { AgentResult } from '../../src/schemas/run-state.js';
import type { ToolImplementation } from '../../src/tools/implement-tool.js';
import { createToolImplementations } from '../../src/tools/implementations/index.js';
import { openShopDb, type ShopDb } from '../../src/tools/implementations/shop-db.js';
import { createWorker } from '../../src/worker.js';
import { connectTestTemporal, uniqueName, type TestTemporal } from './temporal.js';

export interface HarnessOptions {
  script: ModelScriptInput;
  agents?: AgentRegistry;
  /** Replace or wrap tool implementations (fault injection, slow tools). */
  wrapTools?: (tools: Record<string, ToolImplementation>) => Record<string, ToolImplementation>;
  webhooks?: ActivityDeps['webhooks'];
}

export interface Harness {
  temporal: TestTemporal;
  model: ModelServer;
  taskQueue: string;
  dataDir: string;
  /** A separate connection to the demo's shop database, for assertions. */
  shop: ShopDb;
  worker: Worker;
  start(input: AgentWorkflowArgs, workflowId?: string): Promise<WorkflowHandle<(input: AgentWorkflowArgs) => Promise<AgentResult>>>;
  /** Stops the worker (draining) and starts a new one on the same task queue. */
  restartWorker(): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const temporal = await connectTestTemporal();
  const model = await startModelServer({ script: options.script });
  const taskQueue = uniqueName('tq');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hitl-data-'));
  const tools = createToolImplementations({ dataDir });
  const deps: ActivityDeps = {
    agents: { ...registeredAgents, ...options.agents },
    tools: options.wrapTools ? options.wrapTools({ ...tools.byName }) : tools.byName,
    model: { baseURL: model.baseURL, apiKey: 'sk-test-key', defaultModel: 'scripted-model' },
    webhooks: options.webhooks ?? { urls: [] },
  };
  const bundlePath = inject('workflowBundlePath');
  const makeWorker = () =>
    createWorker({ connection: temporal.nativeConnection, namespace: temporal.namespace, taskQueue, deps, workflowBundlePath: bundlePath });

  let worker = await makeWorker();
  let running = worker.run();
  const shop = openShopDb(path.join(dataDir, 'shop.db'));

  const harness: Harness = {
    temporal,
    model,
    taskQueue,
    dataDir,
    shop,
    get worker() {
      return worker;
    },
    start(input, workflowId = uniqueName('run')) {
      return temporal.client.workflow.start('agentWorkflow', { args: [input], taskQueue, workflowId });
    },
    async restartWorker() {
      worker.shutdown();
      await running;
      worker = await makeWorker();
      running = worker.run();
    },
    async close() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running.catch(() => {});
      shop.close();
      tools.close();
      await model.close();
      await temporal.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
