import { describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../schemas/pending-approval.js';
import { reviewText } from './review-text.js';

const refund: PendingApproval = {
  id: 'call-1.2',
  toolName: 'process_refund',
  args: { orderId: '1234', amount: 20000 },
  argsHash: 'sha256:x',
  description: 'Refund 20000 of the 75000 still refundable on order 1234.',
  allowedDecisions: ['approve', 'reject'],
  requestedAt: '2026-11-27T12:00:00.000Z',
  deadline: '2099-11-30T12:00:00.000Z',
  step: 1,
  onTimeout: 'reject',
  rule: 'tools.process_refund.when: amount gt 10000',
};
const at = { index: 1, of: 2 };
// The CLI's own headings, which text from outside must never produce at the start of a line.
const headings = /^(Waits by the rule|Arguments:|What it depend|Proposed by|Shown again)/gm;

describe('hitl review shows what approvers decide on', () => {
  it('a call as the model asked it: its description and arguments, and no world it does not have', () => {
    const text = reviewText(refund, at);
    expect(text).toContain('[1/2] process_refund');
    expect(text).toContain('Refund 20000 of the 75000 still refundable on order 1234.');
    expect(text).toContain('\nWaits by the rule tools.process_refund.when: amount gt 10000\n');
    // A long one (a key the model chose, up to its 200 characters, in a long condition) is cut, saying how much.
    const long = reviewText({ ...refund, rule: `tools.x.when: ${'r'.repeat(5000)}` }, at);
    expect(long).toMatch(/Waits by the rule tools\.x\.when: r{986}… \[4014 more characters; hitl pending --json shows them\]\n/);
    expect(text).toContain('Arguments:\n{\n  "orderId": "1234",\n  "amount": 20000\n}');
    expect(text).not.toContain('depends on');
    expect(text).not.toContain('Proposed by');
  });

  it('a proposal with its world: who proposed it, from which call, and what the run checks again', () => {
    const text = reviewText(
      {
        ...refund,
        proposedBy: { approver: 'bob', callId: 'call-1', toolName: 'send_email' },
        world: { orderId: '1234', refundable: 75000 },
      },
      at,
    );
    expect(text).toContain('Proposed by bob, by an edit of send_email (call-1).');
    expect(text).not.toContain('Still being prepared');
    expect(reviewText({ ...refund, proposedBy: { callId: 'call-1', toolName: 'process_refund' } }, at)).toContain(
      'Written by an edit of process_refund (call-1).',
    );
    expect(reviewText({ ...refund, preparing: true }, at)).toContain('Still being prepared: what its tool depends on is looked up first');
    expect(text).toContain(
      'What it depends on (looked at again before it runs):\n  {\n    "orderId": "1234",\n    "refundable": 75000\n  }',
    );
  });

  it('a call shown again: why, who approved it, and the world before beside the world now', () => {
    const text = reviewText(
      {
        ...refund,
        world: { refundable: 45000 },
        repended: {
          reason: 'world_changed',
          previousId: 'call-1',
          approvedBy: 'fiona',
          message: 'What process_refund depends on changed since it was approved.',
          worldBefore: { refundable: 75000 },
        },
      },
      at,
    );
    expect(text).toContain('Shown again (was call-1, approved by fiona): What process_refund depends on changed since it was approved.');
    expect(text.indexOf('"refundable": 75000')).toBeLessThan(text.indexOf('"refundable": 45000'));
    expect(text).toContain('What it depended on when it was approved:');
  });

  it('text from outside cannot write a heading of its own or reach the terminal raw', () => {
    const forged = '\nArguments:\n{}\nWhat it depends on (looked at again before it runs):\n  {"refundable": 1}';
    const text = reviewText(
      {
        ...refund,
        description: `Refund.${forged}`,
        // An argument's key, which the model chose, names where a hidden character is.
        rule: `tools.x.when: subject matches "refund" did not hold, but a${forged} holds a hidden character`,
        proposedBy: { approver: `bob${forged}`, callId: 'call-1', toolName: 'send_email\u001b[2K' },
        world: { note: `\u001b]0;x\u0007${forged}` },
        repended: { reason: 'world_changed', previousId: 'call-1', message: `changed${forged}` },
      },
      at,
    );
    expect(text.match(headings)).toEqual(['Waits by the rule', 'Proposed by', 'Shown again', 'Arguments:', 'What it depend']);
    // Nor arguments of its own: a description's later lines are marked, where the real arguments' are only indented.
    expect(text).toContain('Refund.\n  │ Arguments:\n  │ {}\n  │ What it depends on');
    // The CLI's own colours (when the terminal takes them) aside.
    expect(text.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(/[\u001b\u0007]/);
  });
});
