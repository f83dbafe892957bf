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

describe('describeCondition', () => {
  it('reads like the rule', () => {
    expect(describeCondition({ all: [{ arg: 'amount', op: 'gt', value: 10000 }, { not: { predicate: 'writesData' } }] })).toBe(
      'all(amount gt 10000, not(writesData()))',
    );
  });
});
