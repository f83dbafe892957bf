/**
 * A real worker on its own task queue against the suite's dev server, the real `openai` client, a scripted model
 * server and a fresh data directory for the demo tools.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import path from 'node:path';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type { Worker, WorkerOptions } from '@temporalio/worker';
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
import { McpConnections } from '../../src/mcp/mcp-connections.js';
import { createWorker } from '../../src/worker.js';
import { connectTestTemporal, uniqueName, type TestTemporal } from './temporal.js';

export const HISTORIES_DIR = path.resolve('test/histories');
/** This checkout's root, which recorded stack traces name: replaced by `<repo>` in recorded histories. */
const REPO_ROOT = path.resolve(HISTORIES_DIR, '../..');
const run = promisify(execFile);

export interface HarnessOptions {
  script?: ModelScriptInput;
  /** A model server already started (the demo's offline model), instead of one for `script`. */
  model?: ModelServer;
  agents?: AgentRegistry;
  /** Replace or wrap tool implementations (fault injection, slow tools). */
  wrapTools?: (tools: Record<string, ToolImplementation>) => Record<string, ToolImplementation>;
  webhooks?: ActivityDeps['webhooks'];
  /**
   * With HITL_RECORD_HISTORIES=<set> (`npm run record-histories -- <set>`), the histories of the runs this
   * harness started are written to test/histories/<set>/<recordAs>--<prompt>.json when it closes.
   */
  recordAs?: string;
  /** A workflow bundle other than the suite's (versioning tests run "old code" first); false: the worker bundles the
   * workflows itself at start, as `npm start` does. */
  bundlePath?: string | false;
  /** The worker's data converter (encryption tests). */
  dataConverter?: DataConverter;
  /** The worker's workflow cache size (createWorker's default otherwise). */
  maxCachedRuns?: number;
  /** Signed decisions: whom new runs trust, and whether they require tokens. */
  signedDecisions?: ActivityDeps['signedDecisions'];
  /** Model calls stream and publish their text to the run's stream (ActivityDeps' `model.streaming`). */
  streaming?: ActivityDeps['model']['streaming'];
  /** Model hooks that run as activities (ActivityDeps' `modelHooks`). */
  modelHooks?: ActivityDeps['modelHooks'];
  /** Worker options over createWorker's (e.g. one activity slot, to hold a tool back). */
  workerOverrides?: Partial<WorkerOptions>;
}

export interface Harness {
  temporal: TestTemporal;
  model: ModelServer;
  taskQueue: string;
  dataDir: string;
  /** A separate connection to the demo's shop database, for assertions. */
  shop: ShopDb;
  worker: Worker;
  start(
    input: AgentWorkflowArgs,
    workflowId?: string,
  ): Promise<WorkflowHandleWithFirstExecutionRunId<(input: AgentWorkflowArgs) => Promise<AgentResult>>>;
  /** Stops the worker (draining) and starts a new one on the same task queue, optionally with other code. */
  restartWorker(options?: {
    bundlePath?: string;
    dataConverter?: DataConverter;
    signedDecisions?: ActivityDeps['signedDecisions'];
    agents?: AgentRegistry;
    /** Runs while no worker polls the task queue (what a run started during a deploy sees). */
    whileStopped?: () => Promise<void>;
  }): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const temporal = await connectTestTemporal();
  const model = options.model ?? (await startModelServer({ script: options.script ?? { conversations: [] } }));
  const taskQueue = uniqueName('tq');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hitl-data-'));
  const tools = createToolImplementations({ dataDir });
  const mcp = new McpConnections();
  let deps: ActivityDeps = {
    mcp,
    agents: { ...registeredAgents, ...options.agents },
    tools: options.wrapTools ? options.wrapTools({ ...tools.byName }) : tools.byName,
    model: { baseURL: model.baseURL, apiKey: 'sk-test-key', defaultModel: 'scripted-model', streaming: options.streaming },
    webhooks: options.webhooks ?? { urls: [] },
    ...(options.signedDecisions && { signedDecisions: options.signedDecisions }),
    ...(options.modelHooks && { modelHooks: options.modelHooks }),
  };
  let bundlePath = options.bundlePath === false ? undefined : (options.bundlePath ?? inject('workflowBundlePath'));
  let dataConverter = options.dataConverter;
  const makeWorker = () =>
    createWorker({
      connection: temporal.nativeConnection,
      namespace: temporal.namespace,
      taskQueue,
      deps,
      ...(bundlePath && { workflowBundlePath: bundlePath }),
      dataConverter,
      ...(options.maxCachedRuns && { maxCachedRuns: options.maxCachedRuns }),
      ...(options.workerOverrides && { overrides: options.workerOverrides }),
    });

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
    async restartWorker(restart = {}) {
      bundlePath = restart.bundlePath ?? bundlePath;
      dataConverter = restart.dataConverter ?? dataConverter;
      if (restart.signedDecisions) deps.signedDecisions = restart.signedDecisions;
      if (restart.agents) deps = { ...deps, agents: { ...deps.agents, ...restart.agents } };
      worker.shutdown();
      await running;
      await restart.whileStopped?.();
      worker = await makeWorker();
      running = worker.run();
    },
    async close() {
      if (options.recordAs && process.env.HITL_RECORD_HISTORIES) {
        await recordHistories(temporal, taskQueue, path.join(HISTORIES_DIR, process.env.HITL_RECORD_HISTORIES), options.recordAs);
      }
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running.catch(() => {});
      shop.close();
      tools.close();
      await mcp.close();
      await model.close();
      await temporal.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/**
 * Writes the history of every finished run on the harness's task queue (sub-agents and runs started through the
 * client included) as `temporal workflow show --output json` prints it, which is what replay reads.
 */
async function recordHistories(temporal: TestTemporal, taskQueue: string, dir: string, prefix: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const used = new Set<string>();
  for await (const info of temporal.client.workflow.list({ query: `TaskQueue = '${taskQueue}' AND ExecutionStatus != 'Running'` })) {
    const prompt = String((info.memo as { prompt?: string } | undefined)?.prompt ?? info.workflowId);
    const slug = `${info.parentExecution ? 'sub-agent-' : ''}${prompt}`
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60);
    let name = `${prefix}--${slug}`;
    for (let i = 2; used.has(name); i++) name = `${prefix}--${slug}-${i}`;
    used.add(name);
    const { stdout } = await run(
      inject('temporalCliPath'),
      [
        'workflow',
        'show',
        '--workflow-id',
        info.workflowId,
        '--run-id',
        info.runId,
        '--address',
        temporal.address,
        '--namespace',
        temporal.namespace,
        '--output',
        'json',
      ],
      { maxBuffer: 256 * 1024 * 1024 },
    );
    // Histories of the very long runs (hundreds of steps) are too big to keep in the repository. The workflow id
    // is kept beside the history: replay needs it where the code derives ids from it (sub-agents).
    if (stdout.length >= 1_000_000) continue;
    // Failures carry stack traces with this checkout's absolute paths: kept relative to the repository instead.
    const history = JSON.parse(stdout.replaceAll(REPO_ROOT, '<repo>'));
    writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ workflowId: info.workflowId, history }));
  }
}
