import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../schemas/chat-message.js';
import type { PolicyOutcome } from '../../schemas/run-state.js';
import { runCallIds } from './call-labels.js';

const reply = (...names: string[]): ChatMessage =>
  ({
    role: 'assistant',
    content: null,
    tool_calls: names.map((name) => ({ id: 'c1', type: 'function', function: { name, arguments: '{}' } })),
  }) as ChatMessage;
const outcome = (id: string, toolName: string, step: number): PolicyOutcome => ({ id, toolName, step, gated: false, rule: 'r' });

describe("runCallIds: the run's ids for the transcript's calls", () => {
  it('matches each step to its reply from the newest back, by tool names in order', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'go' },
      reply('read_data'),
      reply('write_file', 'send_email'),
      { role: 'assistant', content: 'done' },
    ];
    const outcomes = [outcome('call-1', 'read_data', 1), outcome('call-2', 'write_file', 2), outcome('call-3', 'send_email', 2)];
    expect(runCallIds(messages, outcomes)).toEqual(
      new Map([
        [2, ['call-2', 'call-3']],
        [1, ['call-1']],
      ]),
    );
  });

  it('stops at the first step whose calls differ, and matches nothing the outcomes do not reach', () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'go' }, reply('read_data'), reply('write_file')];
    expect(runCallIds(messages, [outcome('call-1', 'cancel_order', 1), outcome('call-2', 'write_file', 2)])).toEqual(
      new Map([[2, ['call-2']]]),
    );
    expect(runCallIds(messages, [outcome('call-2', 'send_email', 2)])).toEqual(new Map());
    expect(runCallIds(messages, [])).toEqual(new Map());
  });
});
