/**
 * An MCP server that lists and answers hostile things (test/fixtures/mcp-hostile-server.ts): the run records what
 * it can check and bound, leaves out the rest with the reason, bounds every result, and hands every odd answer to
 * the model as an error. No workflow task fails on anything the server sends.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { LIMITS } from '../src/contract/limits.js';
import { toolsQuery } from '../src/contract/messages.js';
import { toolMessages } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';

const hostile = defineAgent({
  name: 'hostile',
  instructions: 'You use a hostile server.',
  tools: ['h__*'],
  mcpServers: { h: { command: process.execPath, args: ['--import', 'tsx', path.resolve('test/fixtures/mcp-hostile-server.ts')] } },
});
/** The same server's `ok` tool gated, with a reviewer that goes first and hands calls to humans. */
const reviewed = defineAgent({
  name: 'reviewed',
  instructions: 'You use a hostile server, reviewed.',
  tools: ['h__ok'],
  mcpServers: hostile.mcpServers!,
  approval: { tools: { h__ok: { review: { rule: 'amountLimits', options: { arg: 'n', approveUpTo: 0 } } } } },
});
const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: args });

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    agents: { hostile, reviewed },
    script: {
      conversations: [
        {
          // JSON that the tool's schema takes but that is not plain: the model is told, and no one is asked.
          match: 'odd numbers and keys',
          replies: [
            {
              toolCalls: [
                { id: 'inf', name: 'h__ok', rawArguments: '{"n": 1e400}' },
                { id: 'proto', name: 'h__ok', rawArguments: '{"n": 1, "__proto__": {"n": 2}}' },
                { id: 'fine', name: 'h__ok', rawArguments: '{"n": 0}' },
              ],
            },
            { content: 'told' },
          ],
        },
        {
          match: 'everything odd',
          replies: [
            {
              toolCalls: [
                call('o', 'h__ok', { n: 1 }),
                call('f', 'h__flood'),
                call('g', 'h__garbage'),
                call('t', 'h__throws'),
                call('b', 'h__bad-regex'),
                // 34 a's and a mismatch: minutes of JavaScript's backtracking; the worker process died of it.
                call('r', 'h__backtracks', { s: `${'a'.repeat(34)}!` }),
                call('r2', 'h__backtracks', { s: 'aaaa' }),
              ],
            },
            { content: 'survived' },
          ],
        },
      ],
    },
  });
}, 120_000);
afterAll(() => h?.close());

describe('a hostile MCP server', () => {
  it('cannot make a run fail a workflow task: what it lists is checked and bounded, what it answers goes to the model', async () => {
    const handle = await h.start({ agent: 'hostile', prompt: 'everything odd' });
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'Completed', output: 'survived' });
    expect(((await handle.fetchHistory()).events ?? []).filter((e) => e.workflowTaskFailedEventAttributes)).toEqual([]);

    const { tools, mcpTools, mcpSkipped } = await handle.query(toolsQuery);
    expect(tools).toEqual(['h__ok', 'h__backtracks', 'h__wordy', 'h__flood', 'h__garbage', 'h__throws']);
    const unusable = 'its input schema has a pattern that cannot be used:';
    expect(Object.fromEntries(mcpSkipped.map((s) => [s.name, s.reason]))).toEqual({
      'h__bad-regex': `${unusable} ( (RE2 cannot run it (RE2 has no lookaround or backreferences): error parsing regexp: missing closing ): \`(\`)`,
      h__lookaround: expect.stringMatching(
        /^its input schema has a pattern that cannot be used: \^\(\?=a\)a \(RE2 cannot run it .*unsupported Perl syntax/,
      ),
      'h__huge-schema': expect.stringMatching(/^its input schema is \d+ bytes, over the limit of 16384$/),
      h__deep: 'its input schema nests deeper than 32 levels',
      'h__name.with.dots': "the name does not fit the model API's rule (letters, digits, `_` and `-`, at most 64)",
    });
    const wordy = mcpTools.find((t) => t.name === 'h__wordy')!;
    expect(Buffer.byteLength(wordy.description)).toBeLessThanOrEqual(LIMITS.mcpDescriptionBytes);
    expect(wordy.description).toMatch(/more bytes cut: over the size limit\]$/);

    const messages = Object.fromEntries(await toolMessages(handle));
    expect(messages.o).toBe('n is 1');
    expect(Buffer.byteLength(messages.f!)).toBeLessThanOrEqual(LIMITS.toolResultBytes);
    expect(messages.f).toMatch(/more bytes cut: over the size limit\]$/);
    expect(messages.g).toMatch(/^Error from h__garbage: /);
    expect(messages.t).toMatch(/^Error from h__throws: .*the hostile server fails on purpose/);
    expect(messages.b).toMatch(/^Error: h__bad-regex is not a valid tool/);
    expect(messages.r).toBe(
      `Error: invalid arguments for h__backtracks:\n✖ s: String does not match pattern.\nFix them and call the tool again.`,
    );
    expect(messages.r2).toBe('s is "aaaa"');
  });
});

describe('arguments an MCP tool schema takes but JSON does not hold plainly', () => {
  it('go back to the model as invalid, before a reviewer or a human sees them; the run goes on', async () => {
    const handle = await h.start({ agent: 'reviewed', prompt: 'odd numbers and keys' });
    // 1e400 once threw from the arguments' hash after the reviewer had escalated, failing every workflow task; the
    // __proto__ key failed the run when it continued as new.
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'told' });
    const events = (await handle.fetchHistory()).events ?? [];
    expect(events.filter((e) => e.workflowTaskFailedEventAttributes)).toEqual([]);
    const messages = Object.fromEntries(await toolMessages(handle));
    expect(messages.inf).toBe(
      'Error: invalid arguments for h__ok:\n✖ a number too large for JSON (at n)\nFix them and call the tool again.',
    );
    expect(messages.proto).toBe(
      'Error: invalid arguments for h__ok:\n✖ a key named __proto__ is not allowed (at __proto__)\nFix them and call the tool again.',
    );
    // The plain call was reviewed (approved: 0 is within the limit) and ran.
    expect(messages.fine).toBe('n is 0');
    const reviews = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'reviewCall');
    expect(reviews).toHaveLength(1);
  });
});
