import { describe, expect, it } from 'vitest';
import { InvalidRunInputError } from '../errors.js';
import { checkStartInput, type StartInput } from './start-input.js';

const refusal = (input: Partial<StartInput>) => {
  try {
    checkStartInput({ agent: 'demo', prompt: 'hi', ...input }, undefined);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRunInputError);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('checkStartInput', () => {
  it('refuses a start nested past 128 levels before any schema reads it (3,000 nested `not`s overflowed the stack)', () => {
    const nested = (depth: number) => {
      let when: unknown = { arg: 'amount', op: 'gt', value: 1 };
      for (let i = 0; i < depth; i++) when = { not: when };
      return { approval: { tools: { process_refund: { when } } } } as Partial<StartInput>;
    };
    expect(refusal(nested(3_000))).toBe('Invalid agentWorkflow input: the start input nests deeper than 128 levels');
    expect(() => checkStartInput({ agent: 'demo', prompt: 'hi', ...nested(120) }, undefined)).not.toThrow();
  });

  it('says what a breakpoint setting of the wrong type should have been, and where it is', () => {
    expect(refusal({ interrupt: { afterModel: 'yes' as never } })).toBe(
      'Invalid agentWorkflow input: ✖ Invalid input: expected boolean or object, received string\n  → at interrupt.afterModel',
    );
  });

  it("keeps zod's words for a union alternative that got past the type check", () => {
    expect(refusal({ interrupt: { afterModel: { timeout: 'soon' } } })).toMatch(
      /^Invalid agentWorkflow input: ✖ expected a positive duration .*\n {2}→ at interrupt\.afterModel\.timeout$/,
    );
    expect(refusal({ maxSteps: 0 })).toBe('Invalid agentWorkflow input: ✖ Too small: expected number to be >=1\n  → at maxSteps');
  });

  it("says what is wrong inside a tool's policy, which may be a boolean or an object, where it is", () => {
    expect(refusal({ approval: { tools: { process_refund: { approvers: [123 as never, 'finance'], timeout: 'soon' } } } })).toBe(
      "Invalid agentWorkflow input: ✖ expected a positive duration like '30s', '2h' or '3d'\n  → at approval.tools.process_refund.timeout\n✖ Invalid input: expected string, received number\n  → at approval.tools.process_refund.approvers[0]",
    );
    expect(refusal({ approval: { tools: { process_refund: 'yes' as never } } })).toBe(
      'Invalid agentWorkflow input: ✖ Invalid input: expected boolean or object, received string\n  → at approval.tools.process_refund',
    );
  });

  it('refuses a requester or an approver entry that names no one, each on its own line, before the run exists', () => {
    expect(
      refusal({
        requestedBy: 'alice\u200B',
        approval: { tools: { send_email: { approvers: ['group: ops'] } } },
        interrupt: { beforeTools: { approvers: ['user:'] } },
      }).split('\n'),
    ).toEqual([
      expect.stringMatching(/^Invalid agentWorkflow input: requestedBy: "alice\u200B" names no one: a name is at most 200/),
      expect.stringMatching(/^approval\.tools\.send_email\.approvers\.0: "group: ops" names no one/),
      expect.stringMatching(/^interrupt\.beforeTools\.approvers\.0: "user:" names no one/),
    ]);
    expect(
      checkStartInput(
        { agent: 'demo', prompt: 'hi', requestedBy: 'alice', interrupt: { beforeTools: { approvers: ['group:ops'] } } },
        undefined,
      ),
    ).toMatchObject({ requestedBy: 'alice' });
  });

  it('refuses a policy too large to carry into the runs it continues as', () => {
    const approvers = Array.from({ length: 4000 }, (_, i) => `group:team-${i}`);
    expect(refusal({ approval: { tools: { write_file: { approvers } } } })).toMatch(
      /^Invalid agentWorkflow input: approval and interrupt take \d+ bytes of JSON together; the limit is 65536/,
    );
  });
});
