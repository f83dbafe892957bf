/**
 * MCP tools over streamable HTTP, against the official "everything" server (@modelcontextprotocol/server-everything):
 * structured content, images and resource links as references, errors the server answers with, annotations as the
 * default gate, every decision on MCP calls, and a connection that is reconnected after the server restarts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { runStateQuery, toolsQuery } from '../src/contract/messages.js';
import type { ScriptedToolCall } from '../src/model-server/script-schema.js';
import { decide, refusalOf, toolMessages, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { activitySummaries } from './helpers/history.js';

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

let port: number;
let server: ChildProcess | undefined;

/** The everything server on `port`; resolves once it listens. */
async function startEverything(): Promise<void> {
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  server = child;
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d) => String(d).includes('listening on port') && resolve());
    child.once('exit', (code) => reject(new Error(`the everything server exited (${code})`)));
  });
}

async function stopEverything(): Promise<void> {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const call = (id: string, name: string, args: unknown): ScriptedToolCall => ({ id, name, arguments: args });
const reply = (...toolCalls: ScriptedToolCall[]) => ({ toolCalls });

let h: Harness;
beforeAll(async () => {
  port = await getPort();
  await startEverything();
  const everything = defineAgent({
    name: 'everything',
    instructions: 'You try every tool.',
    tools: ['ev__*'],
    mcpServers: { ev: { url: `http://127.0.0.1:${port}/mcp`, timeout: '30s' } },
    // Tools without a hint wait (default: true); get-sum is read-only, so it waits only when the policy says.
    approval: { default: true, tools: { 'ev__get-sum': { when: { arg: 'a', op: 'gt', value: 100 } } } },
  });
  h = await startHarness({
    agents: { everything },
    script: {
      conversations: [
        {
          match: 'kinds of content',
          replies: [
            reply(
              call('s', 'ev__get-structured-content', { location: 'Chicago' }),
              call('i', 'ev__get-tiny-image', {}),
              call('l', 'ev__get-resource-links', { count: 2 }),
              call('n', 'ev__get-sum', { a: 2, b: 3 }),
            ),
            { content: 'seen' },
          ],
        },
        {
          match: 'errors',
          replies: [
            reply(
              call('g', 'ev__gzip-file-as-resource', { name: 'x.gz', data: 'ftp://example.com/x' }),
              call('x', 'ev__get-sum', { a: 'two', b: 1 }),
            ),
            { content: 'errors seen' },
          ],
        },
        {
          match: 'every decision',
          replies: [
            reply(
              call('a', 'ev__get-sum', { a: 101, b: 1 }),
              call('e', 'ev__get-sum', { a: 200, b: 1 }),
              call('o', 'ev__get-sum', { a: 300, b: 1 }),
              call('r', 'ev__get-sum', { a: 400, b: 1 }),
              call('p', 'ev__get-sum', { a: 500, b: 1 }),
            ),
            { content: 'decided' },
          ],
        },
        { match: 'server restarts', replies: [reply(call('q', 'ev__get-sum', { a: 600, b: 1 })), { content: 'reconnected' }] },
      ],
    },
  });
}, 120_000);
afterAll(async () => {
  await h?.close();
  await stopEverything();
});

describe('the everything MCP server over streamable HTTP', () => {
  it('structured content, images and resource links reach the model as text and references; read-only tools run', async () => {
    const handle = await h.start({ agent: 'everything', prompt: 'kinds of content' });
    const result = await handle.result();
    expect(result.decisions).toEqual([]);
    const messages = Object.fromEntries(await toolMessages(handle));
    expect(JSON.parse(messages.s!)).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
    expect(messages.i).toMatch(/\n\[image: image\/png, \d+ bytes, not shown\]/);
    expect(messages.l).toContain('[resource link: demo://resource/');
    expect(messages.l!.match(/\[resource link: /g)).toHaveLength(2);
    expect(messages.n).toBe('The sum of 2 and 3 is 5.');
    const { policyOutcomes } = await handle.query(runStateQuery);
    expect(new Set(policyOutcomes.map((o) => o.rule))).toEqual(
      new Set(['mcp annotations: readOnlyHint', 'tools.ev__get-sum.when: a gt 100 did not hold']),
    );
    // The annotations are recorded with the tool list, as listed.
    const { mcpTools } = await handle.query(toolsQuery);
    expect(mcpTools.find((t) => t.name === 'ev__get-structured-content')).toMatchObject({
      server: 'ev',
      tool: 'get-structured-content',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      timeout: '30s',
    });
    expect(mcpTools.find((t) => t.name === 'ev__gzip-file-as-resource')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
    });
  });

  it('a tool without hints follows the default; an error the server answers with goes back to the model', async () => {
    const handle = await h.start({ agent: 'everything', prompt: 'errors' });
    const [pending] = await waitForPending(handle, 1);
    expect(pending).toMatchObject({ toolName: 'ev__gzip-file-as-resource', rule: 'default: true' });
    await decide(handle, { decisions: [{ id: pending!.id, type: 'approve' }] });
    await handle.result();
    const messages = Object.fromEntries(await toolMessages(handle));
    expect(messages.g).toMatch(/^Error from ev__gzip-file-as-resource: .*Unsupported URL protocol for ftp:\/\/example\.com\/x/);
    expect(messages.x).toContain('✖ a: Instance type "string" is invalid. Expected "number".');
    expect((await activitySummaries(handle)).filter((s) => s === 'MCP ev__get-sum')).toEqual([]);
  });

  it('approve, edit (checked against the schema), edit into another MCP tool, reject and respond', async () => {
    const handle = await h.start({ agent: 'everything', prompt: 'every decision' });
    const pending = await waitForPending(handle, 5);
    expect(pending.map((p) => p.rule)).toEqual(Array(5).fill('tools.ev__get-sum.when: a gt 100'));
    const invalid = await refusalOf(decide(handle, { decisions: [{ id: 'call-2', type: 'edit', args: { a: 'forty', b: 2 } }] }));
    expect(invalid).toMatchObject({ code: 'invalid_edit_args' });
    const unknown = await refusalOf(decide(handle, { decisions: [{ id: 'call-3', type: 'edit', name: 'ev__nothing', args: {} }] }));
    expect(unknown).toMatchObject({ code: 'unknown_tool' });
    await decide(handle, {
      decisions: [
        { id: 'call-1', type: 'approve' },
        { id: 'call-2', type: 'edit', args: { a: 40, b: 2 } },
        { id: 'call-3', type: 'edit', name: 'ev__echo', args: { message: 'swapped' } },
        { id: 'call-4', type: 'reject', message: 'no' },
        { id: 'call-5', type: 'respond', message: 'it is 501' },
      ],
    });
    await handle.result();
    const messages = Object.fromEntries(await toolMessages(handle));
    expect(messages.a).toBe('The sum of 101 and 1 is 102.');
    expect(messages.e).toBe('(A human reviewer edited the arguments before it ran: {"a":40,"b":2})\nThe sum of 40 and 2 is 42.');
    expect(messages.o).toBe('(A human reviewer replaced this call with ev__echo before it ran: {"message":"swapped"})\nEcho: swapped');
    expect(messages.r).toBe('Rejected by a human reviewer; ev__get-sum did not run. Reason: no');
    expect(messages.p).toBe('it is 501');
  });

  it('a connection lost while a call waits (the server restarted) is reconnected, and an idempotent call retried', async () => {
    const handle = await h.start({ agent: 'everything', prompt: 'server restarts' });
    const [pending] = await waitForPending(handle, 1);
    await stopEverything();
    await startEverything();
    await decide(handle, { decisions: [{ id: pending!.id, type: 'approve' }] });
    await handle.result();
    expect(await toolMessages(handle)).toEqual([['q', 'The sum of 600 and 1 is 601.']]);
    // The first attempt found the old session gone; the second connected anew.
    const events = (await handle.fetchHistory()).events ?? [];
    const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callMcpTool')!;
    const started = events.find(
      (e) => e.activityTaskStartedEventAttributes?.scheduledEventId?.toString() === scheduled.eventId?.toString(),
    );
    expect(started?.activityTaskStartedEventAttributes?.attempt).toBe(2);
  });
});
