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
const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: args });

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    agents: { hostile },
    script: {
      conversations: [
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
    expect(tools).toEqual(['h__ok', 'h__wordy', 'h__flood', 'h__garbage', 'h__throws']);
    expect(Object.fromEntries(mcpSkipped.map((s) => [s.name, s.reason]))).toEqual({
      'h__bad-regex': 'its input schema has a pattern that is not a valid regular expression: (',
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
  });
});
