/**
 * Tool-error handling per tool (LangGraph's `handle_tool_errors`): once a tool's retries are spent, the model reads
 * the error (`return`), the run fails (`fail`), the model reads a fixed message, or a message picked by the error's
 * code or name, with a fallback. Tools that throw values that are not Errors are named `NonError`.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { defineTool } from '../src/tools/define-tool.js';
import { z } from 'zod';
import { toolMessages } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';

const fragile = defineAgent({
  name: 'fragile',
  instructions: 'You test tool failures.',
  tools: ['read_data', 'write_file', 'send_email', 'cancel_order', 'execute_sql'],
  toolErrors: {
    send_email: { message: 'The mail server is down; tell the customer we will write later.' },
    write_file: {
      errors: {
        ENOSPC: 'The disk is full: write a shorter report.',
        TypeError: 'The file tool has a bug; do not try again.',
        NonError: 'The file tool failed in an odd way.',
        tool_refused: 'That path is not allowed.',
      },
      fallback: { message: 'Writing failed; say so.' },
    },
    cancel_order: 'fail',
  },
});

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const write = (id: string, path: string) => call(id, 'write_file', { path, content: 'x' });

/** What each path makes write_file throw. */
const THROWN: Record<string, () => unknown> = {
  'nospace.txt': () => Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }),
  'bug.txt': () => new TypeError("Cannot read properties of undefined (reading 'size')"),
  'string.txt': () => 'a bare string',
  'null.txt': () => null,
  'range.txt': () => new RangeError('offset out of range'),
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    agents: { fragile },
    wrapTools: (tools) => ({
      ...tools,
      write_file: {
        ...tools.write_file!,
        run: (args, ctx) => {
          const thrown = THROWN[(args as { path: string }).path];
          if (thrown) throw thrown();
          return tools.write_file!.run(args, ctx);
        },
      },
      send_email: {
        ...tools.send_email!,
        run: () => {
          throw ApplicationFailure.nonRetryable('SMTP 421: service not available', 'SmtpError');
        },
      },
      execute_sql: {
        ...tools.execute_sql!,
        run: () => {
          throw { code: 42, reason: 'an object, not an Error' };
        },
      },
      cancel_order: {
        ...tools.cancel_order!,
        run: () => {
          throw ApplicationFailure.nonRetryable('the order service refused', 'OrderServiceDown');
        },
      },
    }),
    script: {
      conversations: [
        {
          match: 'break every tool',
          replies: [
            {
              toolCalls: [
                write('w1', 'nospace.txt'),
                write('w2', 'bug.txt'),
                write('w3', 'string.txt'),
                write('w4', 'null.txt'),
                write('w5', 'range.txt'),
                write('w6', '/etc/passwd'),
                call('e1', 'send_email', { to: 'a@example.com', subject: 'Hi', body: 'Hello' }),
                call('q1', 'execute_sql', { query: 'SELECT 1' }),
              ],
            },
            { content: 'Reported every failure.' },
          ],
        },
        {
          match: 'read a bad column',
          replies: [
            { toolCalls: [call('r1', 'read_data', { table: 'orders', where: { colour: 'red' } })] },
            { content: 'No such column.' },
          ],
        },
        { match: 'cancel it', replies: [{ toolCalls: [call('c1', 'cancel_order', { orderId: '1236' })] }, { content: 'never' }] },
      ],
    },
  });
});
afterAll(() => h?.close());

describe('tool errors, per tool', () => {
  it('tells the model a fixed message, a message by code or by name, the fallback, or the error itself', async () => {
    const handle = await h.start({ agent: 'fragile', prompt: 'Please break every tool' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'Reported every failure.' });
    // Tool messages answer the model by its own call ids.
    expect(Object.fromEntries(await toolMessages(handle))).toEqual({
      // By code, before the name (Error) is looked at.
      w1: 'The disk is full: write a shorter report.',
      w2: 'The file tool has a bug; do not try again.',
      // Values that are not Errors: a string, and null.
      w3: 'The file tool failed in an odd way.',
      w4: 'The file tool failed in an odd way.',
      // A RangeError is not in the map: the fallback.
      w5: 'Writing failed; say so.',
      // ToolRefusedError (no retries) by its code.
      w6: 'That path is not allowed.',
      // A fixed message for every failure of the tool.
      e1: 'The mail server is down; tell the customer we will write later.',
      // No rule: the error itself, as before; an object thrown is described as JSON.
      q1: 'Error: the tool threw a value that is not an Error: {"code":42,"reason":"an object, not an Error"}\n Please fix your mistakes.',
    });
  });

  it("hands a local tool's refusal back to the model under the default onError (return)", async () => {
    // read_data is a local activity; its ToolRefusedError used to fail the whole run.
    const handle = await h.start({ agent: 'fragile', prompt: 'Please read a bad column' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'No such column.' });
    expect(await toolMessages(handle)).toEqual([
      ['r1', expect.stringMatching(/^Error: Table orders has no column colour; columns: id, customer, .*Please fix your mistakes\.$/s)],
    ]);
  });

  it('fails the run with the tool error when the rule is fail', async () => {
    const handle = await h.start({ agent: 'fragile', prompt: 'Please cancel it now' });
    const failure = await handle.result().then(
      () => undefined,
      (err) => err,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect(failure.cause).toMatchObject({
      type: 'ToolFailedError',
      message: 'Tool cancel_order (call-1) failed and its policy is onError: fail. the order service refused',
    });
  });

  it('refuses an invalid onError when the tool or the agent is defined', () => {
    const parameters = z.object({});
    expect(() => defineTool({ name: 'bad_tool', description: 'x', parameters, onError: 'ignore' as never })).toThrow(/invalid onError/);
    expect(() => defineTool({ name: 'bad_map', description: 'x', parameters, onError: { errors: {}, fallback: 'return' } })).toThrow(
      /name at least one error/,
    );
    expect(() =>
      defineAgent({ name: 'x', instructions: 'x', tools: ['read_data'], toolErrors: { write_file: 'fail', read_data: { message: '' } } }),
    ).toThrow(/toolErrors.write_file: not one of this agent's tools[\s\S]*toolErrors.read_data.message/);
  });
});
