/**
 * MCP tools gated like ours, against the official filesystem server (@modelcontextprotocol/server-filesystem,
 * stdio) on a temporary directory: reads run, writes wait for a human, edits are checked against the server's
 * schema, a rejected write never touches the disk, and a tool that disappears or changes its schema between the
 * listing and the call is reported to the model.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { runStateQuery } from '../src/contract/messages.js';
import type { ScriptedToolCall } from '../src/model-server/script-schema.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { activitySummaries } from './helpers/history.js';
import { decide, refusalOf, toolMessages, waitForPending } from './helpers/decisions.js';

const require = createRequire(import.meta.url);
export const FILESYSTEM_SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const CHANGED_SERVER = path.resolve('test/fixtures/mcp-changed-server.ts');

const dir = mkdtempSync(path.join(tmpdir(), 'hitl-mcp-fs-'));
const file = (name: string) => path.join(dir, name);
const fsServer = { command: process.execPath, args: [FILESYSTEM_SERVER, dir] };

const files = defineAgent({
  name: 'files',
  instructions: 'You manage files.',
  tools: ['fs__*'],
  mcpServers: { fs: fsServer },
});
/** Globs in the policy override the annotations: reads of a `secret*` file wait, writes of `notes/*` do not. */
const strict = defineAgent({
  name: 'strict-files',
  instructions: 'You manage files carefully.',
  tools: ['fs__read_text_file', 'fs__write_*', 'read_data'],
  mcpServers: { fs: fsServer },
  approval: {
    tools: {
      'fs__read_*': { when: { arg: 'path', op: 'matches', value: 'secret' } },
      fs__write_file: { when: { arg: 'path', op: 'matches', value: '/notes/' }, approvers: ['ops'] },
    },
  },
});

/** Every tool of the server waits (a glob over MCP names), so calls can wait while the server "is upgraded". */
const moving = defineAgent({
  name: 'moving-files',
  instructions: 'You manage files.',
  tools: ['fs__*'],
  mcpServers: { fs: fsServer },
  approval: { tools: { 'fs__*': true } },
});
const upgraded = defineAgent({ ...moving, mcpServers: { fs: { command: process.execPath, args: ['--import', 'tsx', CHANGED_SERVER] } } });

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const reply = (...toolCalls: ScriptedToolCall[]) => ({ toolCalls });

let h: Harness;
beforeAll(async () => {
  writeFileSync(file('note.txt'), 'hello from the filesystem server');
  writeFileSync(file('secret.txt'), 'the combination is 1234');
  h = await startHarness({
    agents: { files, 'strict-files': strict, 'moving-files': moving },
    script: {
      conversations: [
        { match: 'read the note', replies: [reply(call('r', 'fs__read_text_file', { path: file('note.txt') })), { content: 'read' }] },
        {
          match: 'write a report',
          replies: [reply(call('w', 'fs__write_file', { path: file('report.txt'), content: 'Q3: fine' })), { content: 'written' }],
        },
        {
          match: 'write the forbidden',
          replies: [reply(call('w', 'fs__write_file', { path: file('forbidden.txt'), content: 'no' })), { content: 'done' }],
        },
        {
          match: 'bad arguments',
          replies: [
            reply(call('a', 'fs__write_file', { path: file('x.txt') }), call('b', 'fs__read_text_file', { path: 42 }), {
              id: 'c',
              name: 'fs__read_text_file',
              rawArguments: '{"path":',
            }),
            { content: 'fixed nothing' },
          ],
        },
        {
          match: 'strict reads',
          replies: [
            reply(
              call('p', 'fs__read_text_file', { path: file('note.txt') }),
              call('s', 'fs__read_text_file', { path: file('secret.txt') }),
            ),
            { content: 'strict done' },
          ],
        },
        {
          match: 'changing tools',
          replies: [
            reply(
              call('w', 'fs__write_file', { path: file('changed.txt'), content: 'x' }),
              call('g', 'fs__create_directory', { path: file('gone') }),
            ),
            { content: 'changed done' },
          ],
        },
      ],
    },
  });
}, 120_000);
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the filesystem MCP server', () => {
  it('records the listed tools in history, and read_text_file runs without approval', async () => {
    const handle = await h.start({ agent: 'files', prompt: 'read the note' });
    const result = await handle.result();
    expect(result.status).toBe('Completed');
    expect(result.decisions).toEqual([]);
    expect(await toolMessages(handle)).toEqual([['r', 'hello from the filesystem server']]);
    const summaries = await activitySummaries(handle);
    expect(summaries).toContain('list MCP tools (fs)');
    expect(summaries).toContain('MCP fs__read_text_file');
    const { policyOutcomes } = await handle.query(runStateQuery);
    expect(policyOutcomes).toEqual([
      expect.objectContaining({ toolName: 'fs__read_text_file', gated: false, rule: 'mcp annotations: readOnlyHint' }),
    ]);
    // The model was sent the server's own schemas, under the prefixed names.
    const sent = h.model.requests.find((r) => JSON.stringify(r.body).includes('read the note'))!.body as {
      tools: { function: { name: string; parameters: { properties: object } } }[];
    };
    const names = sent.tools.map((t) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(['fs__read_text_file', 'fs__write_file', 'fs__edit_file', 'fs__list_directory']));
    expect(sent.tools.find((t) => t.function.name === 'fs__write_file')!.function.parameters.properties).toEqual({
      path: { type: 'string' },
      content: { type: 'string' },
    });
  });

  it('write_file waits for approval; an edited path is validated against the server schema, then written', async () => {
    const handle = await h.start({ agent: 'files', prompt: 'write a report' });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({
      id: 'call-1',
      toolName: 'fs__write_file',
      args: { path: file('report.txt'), content: 'Q3: fine' },
      rule: 'mcp annotations: destructiveHint',
    });
    const invalid = await refusalOf(
      decide(handle, { decisions: [{ id: 'call-1', type: 'edit', args: { path: 7, content: 'Q3: fine' } }] }),
    );
    expect(invalid.code).toBe('invalid_edit_args');
    expect(invalid.message).toContain('path: Instance type "number" is invalid. Expected "string".');
    const missing = await refusalOf(decide(handle, { decisions: [{ id: 'call-1', type: 'edit', args: { path: file('edited.txt') } }] }));
    expect(missing.code).toBe('invalid_edit_args');
    expect(missing.message).toContain('required property "content"');
    await decide(handle, { decisions: [{ id: 'call-1', type: 'edit', args: { path: file('edited.txt'), content: 'Q3: good' } }] });
    expect((await handle.result()).status).toBe('Completed');
    expect(readFileSync(file('edited.txt'), 'utf8')).toBe('Q3: good');
    expect(existsSync(file('report.txt'))).toBe(false);
    const [[, message]] = await toolMessages(handle);
    expect(message).toContain(`Successfully wrote to ${file('edited.txt')}`);
  });

  it('a rejected write never touches the disk', async () => {
    const handle = await h.start({ agent: 'files', prompt: 'write the forbidden file' });
    await waitForPending(handle, 1);
    await decide(handle, { decisions: [{ id: 'call-1', type: 'reject', message: 'not there' }] });
    const result = await handle.result();
    expect(result.status).toBe('Completed');
    expect(existsSync(file('forbidden.txt'))).toBe(false);
    expect(await toolMessages(handle)).toEqual([['w', 'Rejected by a human reviewer; fs__write_file did not run. Reason: not there']]);
    expect(await activitySummaries(handle)).not.toContain('MCP fs__write_file');
  });

  it('arguments that miss the schema go back to the model and never reach a human or the server', async () => {
    const handle = await h.start({ agent: 'files', prompt: 'bad arguments' });
    const result = await handle.result();
    expect(result.decisions).toEqual([]);
    const messages = Object.fromEntries(await toolMessages(handle));
    expect(messages.a).toMatch(
      /^Error: invalid arguments for fs__write_file:\n✖ arguments: Instance does not have required property "content"\./,
    );
    expect(messages.b).toContain('✖ path: Instance type "number" is invalid. Expected "string".');
    expect(messages.c).toMatch(/^Error: the arguments for fs__read_text_file are not valid JSON/);
    expect((await activitySummaries(handle)).filter((s) => s.startsWith('MCP '))).toEqual([]);
    expect(existsSync(file('x.txt'))).toBe(false);
  });

  it("the agent's policy overrides the annotations by name and by glob, `when` conditions and approvers included", async () => {
    const handle = await h.start({ agent: 'strict-files', prompt: 'strict reads' });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({
      toolName: 'fs__read_text_file',
      args: { path: file('secret.txt') },
      rule: 'tools.fs__read_*.when: path matches "secret"',
    });
    // A new worker replays the paused run from its history, MCP listing and calls included.
    await h.restartWorker();
    await decide(handle, { decisions: [{ id: pending!.id, type: 'respond', message: 'the secret stays secret' }] });
    await handle.result();
    const messages = Object.fromEntries(await toolMessages(handle));
    expect(messages).toEqual({ p: 'hello from the filesystem server', s: 'the secret stays secret' });
    const { policyOutcomes } = await handle.query(runStateQuery);
    expect(policyOutcomes.map((o) => o.rule)).toEqual([
      'tools.fs__read_*.when: path matches "secret" did not hold',
      'tools.fs__read_*.when: path matches "secret"',
    ]);
  });

  it('a tool that changes its schema or disappears while its call waits is reported to the model; nothing runs', async () => {
    const handle = await h.start({ agent: 'moving-files', prompt: 'changing tools' });
    await waitForPending(handle, 2);
    // A deploy: the worker now knows the server as the upgraded one.
    await h.restartWorker({ agents: { 'moving-files': upgraded } });
    await decide(handle, {
      decisions: [
        { id: 'call-1', type: 'approve' },
        { id: 'call-2', type: 'approve' },
      ],
    });
    const result = await handle.result();
    expect(result.status).toBe('Completed');
    const messages = Object.fromEntries(await toolMessages(handle));
    expect(messages.w).toMatch(/^Error: fs__write_file did not run: its server changed the tool's input schema since this run started/);
    expect(messages.g).toBe(
      'Error: fs__create_directory did not run: MCP server "fs" no longer offers create_directory. Do not call it again in this run.',
    );
    expect(existsSync(file('changed.txt'))).toBe(false);
    expect(existsSync(file('gone'))).toBe(false);
  });
});
