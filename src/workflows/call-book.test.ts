import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../schemas/call-record.js';
import { CallBook } from './call-book.js';

const record = (id: string, extra: Partial<CallRecord> = {}): CallRecord => ({
  id,
  toolName: 'process_refund',
  rawArgs: '{}',
  step: 1,
  rule: 'tools.process_refund: true',
  status: 'waiting',
  ...extra,
});

describe('CallBook.decidedEarlier', () => {
  function book(calls: CallRecord[], lastCallNumber: number) {
    const b = new CallBook();
    b.restore({ calls, decided: [['call-1', { type: 'approve', approver: 'ann' }]], lastCallNumber, policyOutcomes: [] });
    return b;
  }

  it('knows the calls it decided, and that older own ids were settled', () => {
    const b = book([], 5);
    expect(b.decidedEarlier('call-1')).toEqual({ type: 'approve', approver: 'ann' });
    expect(b.decidedEarlier('call-4')).toEqual({ type: 'settled' });
    expect(b.decidedEarlier('call-4.3')).toEqual({ type: 'settled' });
    expect(b.decidedEarlier('call-6')).toBeUndefined();
    expect(b.decidedEarlier('call_abc')).toBeUndefined();
    // Ids we never write, however close: no leading zeros, no first announcement numbered.
    for (const id of ['call-04', 'call-4.1', 'call-4.0', 'call-4.02', 'call-0']) expect(b.decidedEarlier(id), id).toBeUndefined();
  });

  it('does not call settled an announcement of a call in the book that never was: a proposal whose edit has not arrived', () => {
    const shown = record('call-3', { pending: { id: 'call-3' } as CallRecord['pending'] });
    const twice = record('call-4', { announcements: 2, pending: { id: 'call-4.2' } as CallRecord['pending'] });
    const b = book([shown, twice], 4);
    expect(b.decidedEarlier('call-3.2')).toBeUndefined();
    expect(b.decidedEarlier('call-4.3')).toBeUndefined();
    // call-4 itself was announced before call-4.2: that one was settled (decided by an edit into the proposal).
    expect(b.decidedEarlier('call-4')).toEqual({ type: 'settled' });
    expect(b.decidedEarlier('call-4.2')).toBeUndefined();
  });

  it('does not call settled an announcement beyond the last that the ledger holds of a call no longer in the book', () => {
    const b = new CallBook();
    const decided: [string, { type: 'approve' | 'edit'; approver: string }][] = [
      ['call-1', { type: 'edit', approver: 'ann' }],
      ['call-1.2', { type: 'approve', approver: 'bob' }],
    ];
    b.restore({ calls: [], decided, lastCallNumber: 3, policyOutcomes: [] });
    expect(b.decidedEarlier('call-1.2')).toEqual({ type: 'approve', approver: 'bob' });
    expect(b.decidedEarlier('call-1.3')).toBeUndefined();
    expect(b.decidedEarlier('call-1.99')).toBeUndefined();
    // A call the ledger holds nothing of (it ran without a gate, or is past what is kept): any announcement may have been.
    expect(b.decidedEarlier('call-2.5')).toEqual({ type: 'settled' });
    // The ledger kept only the later announcements: the earlier ones were settled.
    b.restore({ calls: [], decided: [decided[1]!], lastCallNumber: 3, policyOutcomes: [] });
    expect(b.decidedEarlier('call-1')).toEqual({ type: 'settled' });
  });
});
