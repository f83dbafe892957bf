/**
 * The context a tool implementation gets from the tool activity, for unit tests that call one directly: a call of
 * run `wf` with the given idempotency key (`wf:<call id>`), first attempt, no store, no heartbeats to send.
 */
import type { ToolContext } from '../../src/tools/implement-tool.js';

export function toolContext(idempotencyKey: string, signal = new AbortController().signal): ToolContext {
  return {
    workflowId: 'wf',
    toolCallId: idempotencyKey.split(':')[1]!,
    idempotencyKey,
    attempt: 1,
    agent: 'demo',
    context: {},
    get store(): never {
      throw new Error('this tool does not use the store');
    },
    heartbeat: () => {},
    signal,
  };
}
