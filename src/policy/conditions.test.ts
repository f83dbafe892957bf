import { describe, expect, it } from 'vitest';
import type { Condition } from '../schemas/condition.js';
import { describeCondition, evaluateCondition } from './conditions.js';

const args = { amount: 12000, subject: 'Your Refund', tags: ['vip', 'eu'], customer: { email: 'a@corp.com' }, note: null };

describe('evaluateCondition', () => {
  it.each<[Condition, boolean]>([
    [{ arg: 'amount', op: 'gt', value: 10000 }, true],
    [{ arg: 'amount', op: 'gt', value: 12000 }, false],
    [{ arg: 'amount', op: 'gte', value: 12000 }, true],
    [{ arg: 'amount', op: 'lt', value: 100 }, false],
    [{ arg: 'amount', op: 'lte', value: 12000 }, true],
    [{ arg: 'amount', op: 'eq', value: 12000 }, true],
    [{ arg: 'amount', op: 'ne', value: 12000 }, false],
    [{ arg: 'amount', op: 'gt', value: '100' }, false],
    [{ arg: 'tags', op: 'eq', value: ['vip', 'eu'] }, true],
    [{ arg: 'subject', op: 'in', value: ['Your Refund', 'x'] }, true],
    [{ arg: 'subject', op: 'contains', value: 'refund' }, false],
    [{ arg: 'subject', op: 'contains', value: 'refund', flags: 'i' }, true],
    [{ arg: 'tags', op: 'contains', value: 'vip' }, true],
    [{ arg: 'subject', op: 'matches', value: '^your\\s', flags: 'i' }, true],
    [{ arg: 'subject', op: 'matches', value: 'refund' }, false],
    [{ arg: 'customer.email', op: 'matches', value: '@corp\\.com$' }, true],
    [{ arg: 'note', op: 'exists' }, false],
    [{ arg: 'missing.deeper', op: 'exists' }, false],
    [
      {
        all: [
          { arg: 'amount', op: 'gt', value: 1 },
          { arg: 'tags', op: 'contains', value: 'eu' },
        ],
      },
      true,
    ],
    [
      {
        all: [
          { arg: 'amount', op: 'gt', value: 1 },
          { arg: 'tags', op: 'contains', value: 'us' },
        ],
      },
      false,
    ],
    [
      {
        any: [
          { arg: 'amount', op: 'lt', value: 1 },
          { arg: 'tags', op: 'contains', value: 'eu' },
        ],
      },
      true,
    ],
    [{ not: { arg: 'amount', op: 'gt', value: 1 } }, false],
    [{ predicate: 'externalRecipient', options: { arg: 'customer.email', domains: ['corp.com'] } }, false],
    [{ predicate: 'externalRecipient', options: { arg: 'customer.email', domains: ['shop.com'] } }, true],
    // An unknown predicate gates rather than silently letting the call through.
    [{ predicate: 'noSuchPredicate' }, true],
  ])('%j → %s', (condition, expected) => {
    expect(evaluateCondition(condition, args)).toBe(expected);
  });

  it('tells SQL reads from writes', () => {
    expect(evaluateCondition({ predicate: 'writesData' }, { query: ' select * from orders' })).toBe(false);
    expect(evaluateCondition({ predicate: 'writesData' }, { query: 'WITH x AS (SELECT 1) DELETE FROM orders' })).toBe(true);
    expect(evaluateCondition({ predicate: 'writesData' }, { query: 'UPDATE orders SET status = 1' })).toBe(true);
  });
});

describe('conditions see more than the arguments', () => {
  const facts = {
    context: { customer: { tier: 'vip' }, limit: 500 },
    requestedBy: 'ann',
    agent: 'support',
    callId: 'call-7',
    toolName: 'process_refund',
  };

  it.each<[Condition, boolean]>([
    [{ context: 'customer.tier', op: 'eq', value: 'vip' }, true],
    [{ context: 'customer.region', op: 'exists' }, false],
    [{ fact: 'requestedBy', op: 'in', value: ['ann', 'bob'] }, true],
    [{ fact: 'agent', op: 'eq', value: 'demo' }, false],
    [{ fact: 'callId', op: 'matches', value: '^call-\\d+$' }, true],
    [{ fact: 'toolName', op: 'eq', value: 'process_refund' }, true],
    [{ all: [{ arg: 'amount', op: 'gt', value: 100 }, { not: { context: 'customer.tier', op: 'eq', value: 'vip' } }] }, false],
    // The run's context sets the limit: 12000 is over 500.
    [{ predicate: 'exceedsContextLimit' }, true],
    [{ predicate: 'exceedsContextLimit', options: { limit: 'customer.tier' } }, true],
  ])('%j → %s', (condition, expected) => {
    expect(evaluateCondition(condition, args, facts)).toBe(expected);
  });

  it('gates on a limit from the context, and without one', () => {
    const within = { ...facts, context: { limit: 20000 } };
    expect(evaluateCondition({ predicate: 'exceedsContextLimit' }, args, within)).toBe(false);
    expect(evaluateCondition({ predicate: 'exceedsContextLimit' }, args)).toBe(true);
  });

  it('reads without facts as before: a context or fact comparison sees nothing', () => {
    expect(evaluateCondition({ context: 'customer.tier', op: 'exists' }, args)).toBe(false);
    expect(evaluateCondition({ fact: 'requestedBy', op: 'exists' }, args)).toBe(false);
  });
});

describe('describeCondition', () => {
  it('names the context and facts it reads', () => {
    expect(
      describeCondition({
        any: [
          { context: 'tier', op: 'eq', value: 'new' },
          { fact: 'requestedBy', op: 'exists' },
        ],
      }),
    ).toBe('any(context.tier eq "new", requestedBy exists)');
  });

  it('reads like the rule', () => {
    expect(describeCondition({ all: [{ arg: 'amount', op: 'gt', value: 10000 }, { not: { predicate: 'writesData' } }] })).toBe(
      'all(amount gt 10000, not(writesData()))',
    );
  });
});
