/**
 * A worker process SIGKILLed while MCP writes wait for approval (filesystem server, stdio, agents file): nothing is
 * lost. A decision sent while no worker runs is kept by the server; a new worker process (a new MCP connection)
 * replays the runs from history and carries out each decision exactly once: the approved write lands once, the
 * rejected one never.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { decisionSignal, runStateQuery } from '../../src/contract/messages.js';
import { startModelServer, type ModelServer } from '../../src/model-server/server.js';
import { decide, waitForPending } from '../helpers/decisions.js';
import { connectTestTemporal, uniqueName, type TestTemporal } from '../helpers/temporal.js';
import { sigkill, spawnWorkerProcess, workerProcesses } from '../helpers/worker-processes.js';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hitl-mcp-kill-'));
const files = path.join(dir, 'files');
const agentsFile = path.join(dir, 'agents.json');
const taskQueue = uniqueName('mcp-kill');

let temporal: TestTemporal;
let model: ModelServer;

beforeAll(async () => {
  mkdirSync(files);
  const server = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
  writeFileSync(
    agentsFile,
    JSON.stringify({
      agents: [
        {
          name: 'killfiles',
          instructions: 'You write files.',
          tools: ['fs__*'],
          mcpServers: { fs: { command: process.execPath, args: [server, files] } },
        },
      ],
    }),
  );
  const write = (name: string) => [
    { toolCalls: [{ id: 'w', name: 'fs__write_file', arguments: { path: path.join(files, name), content: `${name} once` } }] },
    { content: 'done' },
  ];
  model = await startModelServer({
    script: {
      conversations: [
        { match: 'approved write', replies: write('approved.txt') },
        { match: 'rejected write', replies: write('rejected.txt') },
      ],
    },
  });
  temporal = await connectTestTemporal();
}, 120_000);

afterAll(async () => {
  for (const worker of workerProcesses) worker.kill('SIGKILL');
  await model?.close();
  await temporal?.close();
  rmSync(dir, { recursive: true, force: true });
});

function spawnWorker(): Promise<ChildProcess> {
  return spawnWorkerProcess({
    address: temporal.address,
    namespace: temporal.namespace,
    taskQueue,
    modelBaseURL: model.baseURL,
    dataDir: path.join(dir, 'data'),
    bundlePath: inject('workflowBundlePath'),
    agentsFile,
  });
}

describe('a worker killed while MCP writes wait', () => {
  it('loses nothing: the approved write lands once, the rejected one never', { timeout: 180_000 }, async () => {
    const first = await spawnWorker();
    const start = (prompt: string) =>
      temporal.client.workflow.start('agentWorkflow', {
        args: [{ agent: 'killfiles', prompt }],
        taskQueue,
        workflowId: uniqueName('kill'),
      });
    const [approved, rejected] = await Promise.all([start('approved write'), start('rejected write')]);
    await waitForPending(approved, 1, 60_000);
    await waitForPending(rejected, 1, 60_000);

    await sigkill(first);
    // Sent while no worker runs: the server keeps the signal until one comes back.
    await approved.signal(decisionSignal, { decisions: [{ id: 'call-1', type: 'approve' }] });

    await spawnWorker();
    await decide(rejected, { decisions: [{ id: 'call-1', type: 'reject', message: 'no' }] });
    expect(await approved.result()).toMatchObject({ status: 'Completed' });
    expect(await rejected.result()).toMatchObject({ status: 'Completed' });

    expect(readFileSync(path.join(files, 'approved.txt'), 'utf8')).toBe('approved.txt once');
    expect(existsSync(path.join(files, 'rejected.txt'))).toBe(false);
    for (const [handle, type] of [
      [approved, 'approve'],
      [rejected, 'reject'],
    ] as const) {
      const { decisions, messages } = await handle.query(runStateQuery);
      expect(decisions.filter((d) => d.outcome === 'applied').map((d) => d.type)).toEqual([type]);
      expect(messages.filter((m) => m.role === 'tool')).toHaveLength(1);
    }
    const events = (await approved.fetchHistory()).events ?? [];
    expect(events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callMcpTool')).toHaveLength(1);
  });
});
