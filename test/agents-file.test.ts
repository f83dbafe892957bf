/**
 * An agent declared only in an agents file (HITL_AGENTS_FILE), end to end: the worker built from the environment
 * as `npm run worker` builds it, the `hitl` CLI as a real process, and the HTTP API as `npm run api` starts it. The
 * agent's tools come from the official filesystem MCP server; its answer must match a JSON Schema.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApiServer } from '../src/api/serve.js';
import type { Listening } from '../src/api/listen.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { readEnvConfig } from '../src/config.js';
import { LIMITS } from '../src/contract/limits.js';
import { pendingApprovalsQuery } from '../src/contract/messages.js';
import { AgentsFileError } from '../src/errors.js';
import { startModelServer, type ModelServer } from '../src/model-server/server.js';
import { createWorkerFromEnv } from '../src/worker.js';
import { runHitl } from './helpers/cli.js';
import type { Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { connectTestTemporal, uniqueName, type TestTemporal } from './helpers/temporal.js';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hitl-agents-file-'));
const notes = path.join(dir, 'notes');
const agentsFile = path.join(dir, 'agents.yaml');
const TOKENS = { 'ada-token-0123456789ab': { approver: 'ada', groups: ['ops'] } };

const AGENTS_YAML = `agents:
  - name: notekeeper
    instructions: You keep notes in files and answer with a JSON summary.
    tools: ["fs__*"]
    maxSteps: 5
    approval:
      tools:
        fs__write_file: { approvers: [ops] }
    responseFormat:
      type: object
      properties: { summary: { type: string } }
      required: [summary]
      additionalProperties: false
    mcpServers:
      fs:
        command: ${JSON.stringify(process.execPath)}
        args: [${JSON.stringify(require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'))}, ${JSON.stringify(notes)}]
  - name: tenanted
    instructions: You help one tenant.
    contextSchema:
      type: object
      properties: { tenant: { type: string } }
      required: [tenant]
`;

const writes = (where: string, content: string) => ({
  toolCalls: [{ id: 'w', name: 'fs__write_file', arguments: { path: path.join(notes, where), content } }],
});

let temporal: TestTemporal;
let model: ModelServer;
let worker: Worker;
let running: Promise<void>;
let closeWorker: () => Promise<void>;
let api: Listening;
let cli: Pick<Harness, 'temporal' | 'taskQueue'>;

beforeAll(async () => {
  mkdirSync(notes);
  writeFileSync(agentsFile, AGENTS_YAML);
  temporal = await connectTestTemporal();
  model = await startModelServer({
    script: {
      conversations: [
        { match: 'note from the cli', replies: [writes('cli.md', 'from the CLI'), { content: '{"summary":"noted from the CLI"}' }] },
        { match: 'note over http', replies: [writes('http.md', 'over HTTP'), { content: '{"summary":"noted over HTTP"}' }] },
      ],
    },
  });
  const config = readEnvConfig({
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: temporal.namespace,
    TEMPORAL_TASK_QUEUE: uniqueName('agents-file'),
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_API_KEY: 'sk-test-key',
    HITL_DATA_DIR: path.join(dir, 'data'),
    HITL_AGENTS_FILE: agentsFile,
    HITL_API_PORT: '0',
  });
  ({ worker, close: closeWorker } = await createWorkerFromEnv(config, temporal.nativeConnection, temporal.namespace, {
    workflowBundlePath: inject('workflowBundlePath'),
  }));
  running = worker.run();
  api = await startApiServer(config, { hitl: new HitlClient(temporal.client, config.TEMPORAL_TASK_QUEUE), tokens: TOKENS });
  cli = { temporal, taskQueue: config.TEMPORAL_TASK_QUEUE };
}, 120_000);

afterAll(async () => {
  await api?.close();
  worker?.shutdown();
  await running?.catch(() => {});
  await closeWorker?.();
  await model?.close();
  await temporal?.close();
  rmSync(dir, { recursive: true, force: true });
});

const hitl = (args: string[]) => runHitl(cli as Harness, ['--json', ...args], { env: { HITL_AGENTS_FILE: agentsFile } });
const http = async (method: string, route: string, body?: unknown) => {
  const response = await fetch(`${api.url}${route}`, {
    method,
    headers: { authorization: 'Bearer ada-token-0123456789ab', ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
};

describe('an agent declared only in an agents file', () => {
  it('is listed beside the agents in code, by the CLI and the API', async () => {
    const listed = await hitl(['agents']);
    expect(listed.code).toBe(0);
    const expected = { name: 'notekeeper', source: 'file', tools: ['fs__*'], mcpServers: ['fs'], maxSteps: 5, structuredOutput: true };
    const agents = JSON.parse(listed.stdout);
    expect(agents).toContainEqual(expected);
    expect(agents).toContainEqual(expect.objectContaining({ name: 'demo', source: 'code' }));
    const overHttp = await http('GET', '/api/agents');
    expect(overHttp.body).toContainEqual(expected);
  });

  it("refuses a start whose context does not match the file agent's schema, before it starts", async () => {
    const refused = await hitl(['start', '--agent', 'tenanted', '--id', 'tenanted-never-started', 'help me']);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stderr).error).toMatchObject({
      code: 'invalid_run_input',
      message: expect.stringContaining('context does not match agent "tenanted"\'s contextSchema'),
    });
    await expect(temporal.client.workflow.getHandle('tenanted-never-started').describe()).rejects.toThrow();
  });

  it('runs end to end from the CLI: start, the write waits for ops, approve, the JSON answer', async () => {
    const started = await hitl(['start', '--agent', 'notekeeper', 'note from the cli']);
    expect(started).toMatchObject({ code: 0, stderr: '' });
    const { workflowId } = JSON.parse(started.stdout);
    const handle = temporal.client.workflow.getHandle(workflowId);
    await waitFor(async () => (await handle.query(pendingApprovalsQuery)).length === 1, 30_000, 'the write to wait');
    const refused = await hitl(['approve', workflowId, 'call-1', '--as', 'bob']);
    expect(refused.code).toBe(3);
    expect(existsSync(path.join(notes, 'cli.md'))).toBe(false);
    const approved = await hitl(['approve', workflowId, 'call-1', '--as', 'ada', '--group', 'ops']);
    expect(approved).toMatchObject({ code: 0 });
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'Completed', structured: { summary: 'noted from the CLI' } });
    expect(readFileSync(path.join(notes, 'cli.md'), 'utf8')).toBe('from the CLI');
  });

  it('runs end to end over HTTP, with the run’s MCP schemas for the edit', async () => {
    expect(await http('POST', '/api/runs', { agent: 'nobody', prompt: 'x' })).toMatchObject({
      status: 400,
      body: { error: { code: 'unknown_agent' } },
    });
    const started = await http('POST', '/api/runs', { agent: 'notekeeper', prompt: 'note over http' });
    expect(started.status).toBe(201);
    const { workflowId } = started.body;
    let approval: any;
    await waitFor(
      async () => {
        [approval] = (await http('GET', '/api/approvals?agent=notekeeper')).body.filter((a: any) => a.workflowId === workflowId);
        return approval !== undefined;
      },
      30_000,
      'the approval to be listed',
    );
    expect(approval).toMatchObject({ toolName: 'fs__write_file', canDecide: true, approvers: ['ops'] });
    const tools = await http('GET', `/api/tools?run=${encodeURIComponent(workflowId)}`);
    expect(tools.body.find((t: any) => t.name === 'fs__write_file')).toMatchObject({
      parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
      annotations: { destructiveHint: true, readOnlyHint: false },
    });
    const bad = await http('POST', `/api/approvals/${approval.id}/edit`, { arguments: { path: path.join(notes, 'edited.md') } });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_edit_args' } } });
    const edited = await http('POST', `/api/approvals/${approval.id}/edit`, {
      arguments: { path: path.join(notes, 'edited.md'), content: 'edited over HTTP' },
    });
    expect(edited.status).toBe(200);
    const result = await temporal.client.workflow.getHandle(workflowId).result();
    expect(result).toMatchObject({ status: 'Completed', structured: { summary: 'noted over HTTP' } });
    expect(readFileSync(path.join(notes, 'edited.md'), 'utf8')).toBe('edited over HTTP');
    expect(existsSync(path.join(notes, 'http.md'))).toBe(false);
  });
});

describe('an agents file with problems a run would only meet too late', () => {
  const fileOf = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const workerFrom = (file: string) =>
    createWorkerFromEnv(
      readEnvConfig({
        TEMPORAL_ADDRESS: temporal.address,
        TEMPORAL_NAMESPACE: temporal.namespace,
        TEMPORAL_TASK_QUEUE: uniqueName('agents-file-refused'),
        HITL_DATA_DIR: path.join(dir, 'data'),
        HITL_AGENTS_FILE: file,
      }),
      temporal.nativeConnection,
      temporal.namespace,
      { workflowBundlePath: inject('workflowBundlePath') },
    );

  it('is refused by `hitl agents` (exit 2) and by the worker, naming every problem with its line', async () => {
    // Without these checks the file was refused for maxSteps alone, which hid the tools and the policy; once that was
    // mended, a run of `long` never got past its first workflow task, and one of `rf2` failed at the model's answer.
    const file = fileOf(
      'late.yaml',
      `agents:
  - name: rf2
    instructions: hi
    responseFormat: { type: object, properties: { a: { type: string, pattern: '(' } }, required: [a] }
  - name: many
    instructions: x
    tools: [read_data, nope, 'fs__*']
    approval: { default: maybe }
    maxSteps: -1
  - name: long
    instructions: ${JSON.stringify('Mind the details. '.repeat(LIMITS.instructionsBytes / 16))}
`,
    );
    const expected = [
      `${file}:4 agents.0.responseFormat.properties.a.pattern: the pattern cannot be used: RE2 cannot run it (RE2 has no lookaround or backreferences): error parsing regexp: missing closing ): \`(\``,
      `${file}:9 agents.1.maxSteps: Too small`,
      `${file}:7 agents.1.tools.1: "nope" names no tool in src/tools/registry.ts`,
      `${file}:7 agents.1.tools.2: "fs__*" names no tool in src/tools/registry.ts`,
      `${file}:8 agents.1.approval.default: `,
      `${file}:11 agents.2.instructions: ${(LIMITS.instructionsBytes / 16) * 18} bytes; at most ${LIMITS.instructionsBytes}`,
    ];
    const listed = await runHitl(cli as Harness, ['agents'], { env: { HITL_AGENTS_FILE: file } });
    expect(listed).toMatchObject({ code: 2, stdout: '' });
    expect(listed.stderr).toContain(`${file} has ${expected.length} problem(s)`);
    for (const line of expected) expect(listed.stderr).toContain(line);
    const refused = await workerFrom(file).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AgentsFileError);
    for (const line of expected) expect((refused as Error).message).toContain(line);
  });

  it('refuses aliases of aliases as a problem of the file: exit 2, the file named', async () => {
    const levels = Array.from({ length: 9 }, (_, i) => {
      const item = i === 0 ? 'lol' : `*l${i - 1}`;
      return `  l${i}: &l${i} [${Array(9).fill(item).join(', ')}]`;
    });
    const file = fileOf('aliases.yaml', `bomb:\n${levels.join('\n')}\nagents: []\n`);
    const listed = await runHitl(cli as Harness, ['--json', 'agents'], { env: { HITL_AGENTS_FILE: file } });
    expect(listed.code).toBe(2);
    expect(JSON.parse(listed.stderr)).toEqual({
      error: {
        code: 'agents_file_invalid',
        message: `${file} is not valid YAML or JSON:\n  Excessive alias count indicates a resource exhaustion attack`,
      },
    });
    await expect(workerFrom(file)).rejects.toThrow(AgentsFileError);
  });
});
