import path from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { bundleWorkflowCode } from '@temporalio/worker';
import { startDevServer } from '../src/dev/dev-server.js';
import { startModelServer } from '../src/model-server/server.js';
import { WORKFLOWS_PATH } from '../src/worker.js';
import { benchScript } from './bench-agent.js';
import { connectClient, type BenchContext } from './context.js';
import { measureDensity } from './scenarios/density.js';
const tmpDir = mkdtempSync(path.join(tmpdir(), 'probe-'));
const server = await startDevServer({ forceStart: true, uiPort: false, dbFile: path.join(tmpDir, 't.db') });
const { code } = await bundleWorkflowCode({
  workflowsPath: WORKFLOWS_PATH,
  logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
});
writeFileSync(path.join(tmpDir, 'a.js'), code);
const model = await startModelServer({ script: benchScript(49) });
const { connection, client } = await connectClient(server);
const ctx = {
  server,
  address: server.address,
  namespace: server.namespace,
  client,
  connection,
  model,
  agentBundlePath: path.join(tmpDir, 'a.js'),
  floorBundlePath: '',
  tmpDir,
  log: (l: string) => console.log(new Date().toISOString().slice(11, 19), l),
  settings: { mode: 'full' },
} as unknown as BenchContext;
const r = await measureDensity(ctx, { runs: Number(process.env.N), concurrency: 100, overrides: JSON.parse(process.env.OV ?? '{}') });
console.log(JSON.stringify(r));
await model.close();
await server.stop();
process.exit(0);
