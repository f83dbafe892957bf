/**
 * A worker in its own process, so the reliability suite can SIGKILL it. Configured by env:
 * TEMPORAL_ADDRESS, TASK_QUEUE, MODEL_BASE_URL, DATA_DIR, BUNDLE_PATH, optionally NAMESPACE, AGENTS_FILE (agents
 * declared in a file, beside those in code) and STREAM_BATCH_MS (model calls stream, in batches this long), and FAULT:
 * - `kill-after-effect:<tool>`: on a first attempt, SIGKILL this process right after the tool's effect is
 *   committed (before the activity can report it).
 */
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { loadAgents } from '../../src/agents/registry.js';
import { McpConnections } from '../../src/mcp/mcp-connections.js';
import { createToolImplementations } from '../../src/tools/implementations/index.js';
import { createWorker } from '../../src/worker.js';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

Runtime.install({ logger: new DefaultLogger('ERROR') });
const tools = createToolImplementations({ dataDir: env('DATA_DIR') });
const byName = { ...tools.byName };
const fault = /^kill-after-effect:(\w+)$/.exec(process.env.FAULT ?? '');
if (fault) {
  const name = fault[1]!;
  const real = byName[name]!;
  byName[name] = {
    ...real,
    run: async (args, ctx) => {
      const result = await real.run(args, ctx);
      if (ctx.attempt === 1) process.kill(process.pid, 'SIGKILL');
      return result;
    },
  };
}

const agents = loadAgents({ HITL_AGENTS_FILE: process.env.AGENTS_FILE }, process.env);
const mcp = new McpConnections();
const connection = await NativeConnection.connect({ address: env('TEMPORAL_ADDRESS') });
const worker = await createWorker({
  connection,
  namespace: process.env.NAMESPACE ?? 'default',
  taskQueue: env('TASK_QUEUE'),
  workflowBundlePath: env('BUNDLE_PATH'),
  deps: {
    agents,
    mcp,
    tools: byName,
    model: {
      baseURL: env('MODEL_BASE_URL'),
      apiKey: 'sk-reliability',
      defaultModel: 'scripted-model',
      ...(process.env.STREAM_BATCH_MS && { streaming: { batchIntervalMs: Number(process.env.STREAM_BATCH_MS) } }),
    },
    webhooks: { urls: [] },
  },
});
process.stdout.write('worker ready\n');
await worker.run();
tools.close();
await mcp.close();
await connection.close();
