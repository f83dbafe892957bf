/** What a run is refused on where it is asked for (the API, the CLI), before any Temporal call. */
import { describe, expect, it } from 'vitest';
import { InvalidRunInputError, UnknownAgentError } from '../errors.js';
import { checkRunStart } from './check-run-start.js';
import { defineAgent } from './define-agent.js';
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

  it('refuses breakpoints that would loosen the agent’s, unless the agent allows any', () => {
    const careful = defineAgent({
      name: 'careful',
      instructions: 'x',
      tools: ['write_file'],
      interrupt: { beforeTools: { approvers: ['ed'] } },
    });
    const relaxed = { ...careful, name: 'relaxed', approval: { ...careful.approval, runOverrides: 'any' as const } };
    const registry = { careful, relaxed };
    expect(() => checkRunStart(registry, { agent: 'careful', interrupt: { beforeTools: false } })).toThrow(
      /interrupt may only tighten agent "careful"'s breakpoints[^]*- interrupt\.beforeTools: the agent pauses here; a run may not switch it off/,
    );
    expect(() => checkRunStart(registry, { agent: 'careful', interrupt: { beforeTools: { approvers: ['user:ed'] } } })).not.toThrow();
    expect(() => checkRunStart(registry, { agent: 'relaxed', interrupt: { beforeTools: false } })).not.toThrow();
  });

  it('refuses a predicate or rule that is not there, or options it does not take, where the run is asked for', () => {
    const domains = { predicate: 'externalRecipient', options: { domains: 'notalist' } };
    const subject = { arg: 'subject', op: 'matches', value: 'refund', flags: 'i' };
    const err = refusal({ agent: 'demo', approval: { tools: { send_email: { when: { any: [domains, subject] } } } } });
    expect(err).toBeInstanceOf(InvalidRunInputError);
    expect(err.message).toBe(
      'Invalid agentWorkflow input: approval.tools.send_email.when.any.0.options.domains: expected an array of strings (domains such as `shop.com`)',
    );
    // A run's reviewer: an unknown rule, or bad options, is said so, not called a loosening.
    const reviewed = (review: unknown) => refusal({ agent: 'demo', approval: { tools: { cancel_order: { review } } } }).message;
    expect(reviewed({ rule: 'nope' })).toBe(
      'Invalid agentWorkflow input: approval.tools.cancel_order.review.rule: no rule "nope" in src/reviewers/rules.ts (known: amountLimits)',
    );
    expect(reviewed({ rule: 'amountLimits', options: { approveUpTo: 'lots', rejectAbove: 50000, bogus: 1 } }).split('\n')).toEqual([
      'Invalid agentWorkflow input: approval.tools.cancel_order.review.options.approveUpTo: expected a finite number',
      'approval.tools.cancel_order.review.options.bogus: not an option: amountLimits takes arg, approveUpTo, rejectAbove',
    ]);
    // A reviewer that can only reject or escalate takes no consent away (reviewerMayApprove): taken, as the workflow
    // takes it (patch set 29). One that may approve is a loosening.
    expect(() =>
      checkRunStart(agents, {
        agent: 'demo',
        approval: { tools: { cancel_order: { review: { rule: 'amountLimits', options: { rejectAbove: 50000 } } } } },
      }),
    ).not.toThrow();
    expect(reviewed({ rule: 'amountLimits', options: { approveUpTo: 50000 } })).toContain(
      'tools.cancel_order.review: a reviewer may approve on its own',
    );
    // The default entry, a `not`, and an agent that takes any run policy: its calls would fail closed all the same.
    const relaxed = { ...agents.demo!, approval: { ...agents.demo!.approval, runOverrides: 'any' as const } };
    expect(() =>
      checkRunStart(
        { demo: relaxed },
        { agent: 'demo', approval: { default: { when: { not: { predicate: 'writesData', options: 1 } } } } },
      ),
    ).toThrow('approval.default.when.not.options: expected an object of options: writesData takes no options');
    // The CLI, which may not know the agent, checks them too.
    expect(() =>
      checkRunStart(
        agents,
        { agent: 'elsewhere', approval: { tools: { x: { when: { predicate: 'nope' } } } } },
        { unknownAgents: 'allow' },
      ),
    ).toThrow('approval.tools.x.when.predicate: no predicate "nope"');
    expect(() =>
      checkRunStart(agents, {
        agent: 'demo',
        approval: { tools: { send_email: { when: { any: [{ ...domains, options: { domains: ['shop.com'] } }, subject] } } } },
      }),
    ).not.toThrow();
  });

  it('answers thousands of bad entries in a few KiB: twenty listed, each quoted at most 220 characters', () => {
    const approvers = Array.from({ length: 5000 }, (_, i) => `group: ${'x'.repeat(1000)}${i}`);
    const message = refusal({ agent: 'demo', approval: { tools: { process_refund: { approvers } } } }).message;
    const lines = message.split('\n');
    expect(lines).toHaveLength(21);
    expect(lines.at(-1)).toBe('… and 4980 more');
    expect(message.length).toBeLessThan(12_000);
  });
});
