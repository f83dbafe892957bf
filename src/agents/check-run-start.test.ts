/** What a run is refused on where it is asked for (the API, the CLI), before any Temporal call. */
import { describe, expect, it } from 'vitest';
import { InvalidRunInputError, UnknownAgentError } from '../errors.js';
import { checkRunStart } from './check-run-start.js';
import { agents } from './registry.js';

const refusal = (input: Parameters<typeof checkRunStart>[1]) => {
  try {
    checkRunStart(agents, input);
  } catch (err) {
    return err as Error;
  }
  throw new Error('not refused');
};

describe('checkRunStart', () => {
  it('lists every entry that names no one, its own policy first, then its breakpoints', () => {
    const err = refusal({
      agent: 'demo',
      approval: { tools: { process_refund: { approvers: ['group: finance'] } } },
      interrupt: { beforeTools: { approvers: ['user:'] } },
    });
    expect(err).toBeInstanceOf(InvalidRunInputError);
    expect(err.message.split('\n')).toEqual([
      expect.stringMatching(/^Invalid agentWorkflow input: approval\.tools\.process_refund\.approvers\.0: "group: finance" names no one/),
      expect.stringMatching(/^interrupt\.beforeTools\.approvers\.0: "user:" names no one/),
    ]);
  });

  it('calls a typo a typo, not a loosening of the agent’s approvers', () => {
    expect(refusal({ agent: 'demo', approval: { tools: { process_refund: { approvers: ['finance '] } } } }).message).toContain(
      '"finance " names no one',
    );
    expect(refusal({ agent: 'demo', approval: { tools: { process_refund: { approvers: ['support'] } } } }).message).toContain(
      'the agent allows only finance, not support',
    );
  });

  it('leaves breakpoints of the wrong shape to the client, which words the whole input', () => {
    expect(() => checkRunStart(agents, { agent: 'demo', interrupt: { beforeTools: null } })).not.toThrow();
    expect(() => checkRunStart(agents, { agent: 'demo', interrupt: { beforeTools: { approvers: ['group:finance'] } } })).not.toThrow();
    expect(refusal({ agent: 'nobody' })).toBeInstanceOf(UnknownAgentError);
  });
});
