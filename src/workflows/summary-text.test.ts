import { describe, expect, it } from 'vitest';
import { summaryText } from './summary-text.js';

describe('summaryText', () => {
  it('keeps a summary of names within the server’s 400 bytes, cut with a marker, whole when short', () => {
    expect(summaryText('tool write_file')).toBe('tool write_file');
    const approvers = Array.from({ length: 400 }, (_, i) => `group:team-${i}`).join(', ');
    const cut = summaryText(`escalation · send_email · call-1 · to ${approvers}`);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(200);
    expect(cut.startsWith('escalation · send_email · call-1 · to group:team-0, ')).toBe(true);
    expect(cut).toMatch(/more bytes cut/);
    expect(Buffer.byteLength(summaryText(`the events ${'é'.repeat(500)} handed over`))).toBeLessThanOrEqual(200);
  });
});
