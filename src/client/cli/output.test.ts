import { describe, expect, it } from 'vitest';
import { promptCell } from './commands/runs.js';
import { approversCell, durationText, jsonText, pendingTable, until } from './output.js';

describe('due times', () => {
  it('are written as durations are (30s, 15m, 2h, 3d), seconds under a minute', () => {
    const cases: [number, string][] = [
      [1, '1s'],
      [5_000, '5s'],
      [59_000, '59s'],
      [59_600, '1m'],
      [90_000, '2m'],
      [59 * 60_000, '59m'],
      [59.6 * 60_000, '1h'],
      [47 * 3_600_000, '47h'],
      [48 * 3_600_000, '2d'],
      [7 * 86_400_000, '7d'],
    ];
    for (const [ms, text] of cases) expect(durationText(ms), `${ms} ms`).toBe(text);
  });

  it('count from now, and a deadline passed is overdue', () => {
    const now = Date.parse('2026-01-01T00:00:00.000Z');
    expect(until('2026-01-01T00:00:05.000Z', now)).toBe('5s');
    expect(until('2026-01-01T00:00:00.000Z', now)).toContain('overdue');
  });
});

describe('approversCell', () => {
  it('shows ten entries at most, each cut at 60 characters, and counts the rest', () => {
    const many = Array.from({ length: 4900 }, (_, i) => `user:${'a'.repeat(190)}${i}`);
    const cell = approversCell(many)!;
    expect(cell.endsWith(' (+4890 more)')).toBe(true);
    expect(cell.length).toBeLessThan(700);
    expect(approversCell(['group:finance', 'user:cfo'])).toBe('group:finance user:cfo');
    expect(approversCell(undefined)).toBeUndefined();
    expect(approversCell(['\u001b[31mred'])).toBe('\\u001b[31mred');
  });
});

describe('--json output', () => {
  it('escapes hidden characters in JSON’s own way: the same value, nothing that reorders text on a terminal', () => {
    const value = { prompt: 'refund \u202Egnp.exe\u202C now', note: 'a\u200Bb', flag: '🇫🇷', tag: 'x\u{E0041}', lines: 'one\ntwo' };
    const text = jsonText(value, 2);
    expect(text).toContain('refund \\u202egnp.exe\\u202c now');
    expect(text).not.toMatch(/[\u202A-\u202E\u200B]/u);
    expect(text).not.toContain('\u{E0041}');
    expect(JSON.parse(text)).toEqual(value);
    // Pretty-printed still: its own newlines are JSON's layout, not text.
    expect(text.split('\n').length).toBeGreaterThan(5);
  });
});

describe('cells cut to fit a table', () => {
  const call = {
    id: 'call-1',
    toolName: 'write_file',
    allowedDecisions: ['approve'],
    deadline: new Date(Date.now() + 60_000).toISOString(),
  };

  it('say when the list held only a preview of the arguments, and where to see them whole', () => {
    const preview = pendingTable([{ ...call, args: { preview: '{"path": "a.txt", "content": "xx' }, argsTruncated: true }]);
    expect(preview).toContain('[a preview; hitl review shows them whole]');
    const longer = pendingTable([{ ...call, args: { preview: 'x'.repeat(500) }, argsTruncated: true }]);
    expect(longer).toMatch(/… \[\d+ more characters; hitl review shows them\]/);
    expect(preview + longer).not.toContain('--json');
    expect(pendingTable([{ ...call, args: { path: 'a.txt' } }])).not.toContain('preview');
  });

  it('say who wrote a call a person proposed, and that anyone may decide a call with no approvers listed', () => {
    const edited = pendingTable([{ ...call, args: {}, proposedBy: { approver: 'bob', callId: 'call-1', toolName: 'send_email' } }]);
    expect(edited).toContain('proposed by bob by an edit of call-1');
    const atBreak = pendingTable([
      { ...call, args: {}, proposedBy: { approver: 'ann', callId: 'break-2', toolName: 'breakpoint:afterModel' } },
    ]);
    expect(atBreak).toContain('proposed by ann at break-2');
    expect(pendingTable([{ ...call, args: {}, approvers: undefined }])).toMatch(/│ anyone +│/);
  });

  it('mark a prompt cut at 60 characters, and never split a character', () => {
    const prompt = `Refund order 1234 in full, it is small, approve it 😀😀 and then DROP TABLE orders`;
    expect(promptCell(prompt)).toBe(`${[...prompt].slice(0, 59).join('')}…`);
    expect([...promptCell(prompt)]).toHaveLength(60);
    expect(promptCell('a'.repeat(58) + '😀😀')).toBe('a'.repeat(58) + '😀😀');
    expect(promptCell('short')).toBe('short');
  });
});
