import { describe, expect, it } from 'vitest';
import { reportDigest } from '../contract/sent-report-query.js';
import { SentReports } from './sent-reports.js';

const report = (seq: number, path = 'a.md') => ({ workflowId: 'p/call-1', seq, pending: [{ id: 'call-1', args: { path } }], tools: [] });

describe('SentReports', () => {
  it('vouches for the reports it sent, as the parent received them, and for nothing else', () => {
    const sent = new SentReports();
    sent.sent(1, report(1));
    // What the parent received went through JSON: undefined fields gone, keys in any order.
    const received = JSON.parse(
      JSON.stringify({ tools: [], seq: 1, pending: [{ args: { path: 'a.md' }, id: 'call-1' }], workflowId: 'p/call-1' }),
    );
    expect(sent.digestOf(1)).toBe(reportDigest(received));
    expect(sent.digestOf(1)).toBe(reportDigest({ ...report(1), answers: undefined }));
    // The same number, other content; a number never sent; input that is no number.
    expect(sent.digestOf(1)).not.toBe(reportDigest(report(1, 'harmless.md')));
    expect(sent.digestOf(1_000_000)).toBeNull();
    for (const junk of ['1', null, undefined, { seq: 1 }]) expect(sent.digestOf(junk)).toBeNull();
  });

  it('keeps the latest 64', () => {
    const sent = new SentReports();
    for (let seq = 1; seq <= 100; seq++) sent.sent(seq, report(seq));
    expect(sent.digestOf(36)).toBeNull();
    expect(sent.digestOf(37)).toBe(reportDigest(report(37)));
    expect(sent.digestOf(100)).toBe(reportDigest(report(100)));
  });
});
