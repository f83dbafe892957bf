import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schemas/run-event.js';
import type { RunState } from '../../schemas/run-state.js';
import { describeRun } from './commands/runs.js';
import { WatchPrinter, describeEvent } from './commands/watch.js';
import { pendingTable } from './output.js';
import { terminalText } from './terminal-text.js';

/**
 * What must never reach the terminal raw: controls, line breakers and default-ignorable characters (in multi-line
 * text, newline and tab may) and the Egyptian hieroglyph format controls. Written apart from the rule under test: a variation selector may stay only right after
 * a character that is not a selector, a Latin letter or a space; a joiner only between two that are neither ASCII,
 * Latin, spaces nor hidden; a tag character only inside one of the three subdivision flags.
 */
const RAW = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u2800\ufff9-\ufffb\u{13430}-\u{1343f}]|\p{Default_Ignorable_Code_Point}/u;
/** A neighbour a joiner never needs: nothing, ASCII, a Latin letter, a space, or a hidden character but an emoji's selector. */
const joinsNothing = (c: string | undefined) =>
  c === undefined || /[\u0000-\u007f\p{Script=Latin}\s]/u.test(c) || (RAW.test(c) && c !== '\uFE0F');
const SELECTOR = /[\uFE00-\uFE0F\u180B-\u180D\u180F\u{E0100}-\u{E01EF}]/u;
const tags = (text: string) => [...text].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
const FLAGS = ['gbeng', 'gbsct', 'gbwls'].map((code) => `\u{1F3F4}${tags(code)}\u{E007F}`);

/** The hidden characters left in printed text that the rule should have shown. */
function hiddenLeft(printed: string, multiline = false): string[] {
  const points = [...FLAGS.reduce((text, flag) => text.replaceAll(flag, ''), printed)];
  return points.filter((c, i) => {
    if (multiline && (c === '\n' || c === '\t')) return false;
    if (!RAW.test(c)) return false;
    const before = points[i - 1];
    if (c === '\u200c' || c === '\u200d') return joinsNothing(before) || joinsNothing(points[i + 1]);
    return !(SELECTOR.test(c) && before !== undefined && !SELECTOR.test(before) && !/[A-Za-z\s]/.test(before));
  });
}
const RAW_ALL = new RegExp(RAW.source, 'gu');
const BIDI = [0x61c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];

/** Text rich in controls: mostly C0, DEL, C1 and bidi code points, among any others. */
const hostileText = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0xa0 }),
      fc.constantFrom(
        ...BIDI,
        0x13430,
        0x1343f,
        0xad,
        0x200b,
        0x200c,
        0x200d,
        0x2028,
        0x2060,
        0xfeff,
        0xe0041,
        0xe007f,
        0xfe0f,
        0xfe0e,
        0xe0100,
        0x1d173,
        0x2800,
        0x2764,
        0x61,
      ),
      fc.integer({ min: 0, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff),
    ),
  )
  .map((codes) => String.fromCodePoint(...codes));
/** Without a single control or default-ignorable character: letters of any script, emoji, punctuation, backslashes. */
const safeText = fc.string({ unit: 'binary' }).map((s) => s.replace(RAW_ALL, ''));

const stripOwnColours = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('terminalText', () => {
  it('shows escape sequences, carriage returns and bidi controls as visible escapes', () => {
    expect(terminalText('9999\u001b[2K\rINNOCENT')).toBe('9999\\u001b[2K\\rINNOCENT');
    expect(terminalText('\u001b]0;title\u0007')).toBe('\\u001b]0;title\\u0007');
    expect(terminalText('refund \u202e001$')).toBe('refund \\u202e001$');
    expect(terminalText('\u009b31m\u007f\u0000')).toBe('\\u009b31m\\u007f\\u0000');
  });

  it('shows what prints as nothing, so a look-alike name does not pass for the real one', () => {
    expect(terminalText('ali\u200bce')).toBe('ali\\u200bce');
    expect(terminalText('\ufeffprocess_refund\u2060')).toBe('\\ufeffprocess_refund\\u2060');
    expect(terminalText('line\u2028next\u00ad')).toBe('line\\u2028next\\u00ad');
    expect(terminalText('bob\u3164 \uffa0\u115f')).toBe('bob\\u3164 \\uffa0\\u115f');
    // Where the joiners stay and where they show: src/contract/hidden-characters.test.ts.
  });

  it('shows text hidden in tag characters or variation selectors, and keeps flags, emoji and variants whole', () => {
    // "IGNORE" in tag characters: invisible on screen, read by the next model that gets this email.
    expect(terminalText(`Thanks!${tags('IGNORE')}`)).toBe(
      'Thanks!\\udb40\\udc49\\udb40\\udc47\\udb40\\udc4e\\udb40\\udc4f\\udb40\\udc52\\udb40\\udc45',
    );
    const scotland = `\u{1F3F4}${tags('gbsct')}\u{E007F}`;
    expect(terminalText(`Go ${scotland}!`)).toBe(`Go ${scotland}!`);
    // A black flag does not make any tags a flag: only the three subdivision flags are.
    expect(terminalText(`\u{1F3F4}${tags('ignore')}\u{E007F}`)).toBe(
      '\u{1F3F4}\\udb40\\udc69\\udb40\\udc67\\udb40\\udc6e\\udb40\\udc6f\\udb40\\udc72\\udb40\\udc65\\udb40\\udc7f',
    );
    expect(terminalText('\u{E007F}')).toBe('\\udb40\\udc7f');
    // One selector per letter carries a byte each; after an emoji, a keycap digit, an ideograph or a math sign, one is a glyph.
    expect(terminalText('h\uFE01e\u{E0150}l\uFE0Dl\u{E0101}o')).toBe('h\\ufe01e\\udb40\\udd50l\\ufe0dl\\udb40\\udd01o');
    expect(terminalText('❤\uFE0F ok\uFE0F\uFE0E\u{E0100}')).toBe('❤\uFE0F ok\\ufe0f\\ufe0e\\udb40\\udd00');
    expect(terminalText('❤\uFE0F\uFE0F')).toBe('❤\uFE0F\\ufe0f');
    for (const kept of ['1\uFE0F\u20E3', '葛\u{E0100}', '≤\uFE00', '☺\uFE0E']) expect(terminalText(kept)).toBe(kept);
    // ASCII takes none: not `=` (a math sign), not a digit outside a keycap.
    expect(terminalText('a=\uFE05 1\uFE0F')).toBe('a=\\ufe05 1\\ufe0f');
  });

  it('shows the other characters that print as nothing', () => {
    expect(terminalText('ali\u{1D173}ce \u2800 \u17B4 \u{1BCA0}')).toBe('ali\\ud834\\udd73ce \\u2800 \\u17b4 \\ud82f\\udca0');
  });

  it("indents multi-line text's later lines when asked, so they cannot pass for the CLI's own lines", () => {
    expect(terminalText('done.\ndecided: approve process_refund [call-1] by alice', { multiline: true, indent: '  ' })).toBe(
      'done.\n  decided: approve process_refund [call-1] by alice',
    );
    expect(terminalText('a\nb', { indent: '  ' })).toBe('a⏎b');
  });

  it('shows newlines and tabs of a single-line field, and keeps them in multi-line text', () => {
    expect(terminalText('line one\nline\ttwo')).toBe('line one⏎line\\ttwo');
    expect(terminalText('line one\nline\ttwo\r\n', { multiline: true })).toBe('line one\nline\ttwo\\r\n');
  });

  it('leaves every other text alone', () => {
    for (const s of ['Refund order 1234 in full', 'Zoë, Łódź, 東京, مرحبا, שלום', '🚀👩🏽‍💻', 'a\\u001b is only text', ''])
      expect(terminalText(s)).toBe(s);
    expect(terminalText(undefined)).toBeUndefined();
  });

  it('never lets a control through, but newline and tab in multi-line text (property)', () => {
    fc.assert(
      fc.property(hostileText, (s) => {
        const line = terminalText(s);
        expect(hiddenLeft(line)).toEqual([]);
        // No C0 or DEL byte either once encoded (C1 code points are checked above: as bytes they are UTF-8 continuations).
        expect([...Buffer.from(line)].some((b) => b < 0x20 || b === 0x7f)).toBe(false);
        expect(hiddenLeft(terminalText(s, { multiline: true }), true)).toEqual([]);
        expect(terminalText(line)).toBe(line);
      }),
      { numRuns: 500 },
    );
  });

  it('changes nothing in text without controls (property)', () => {
    fc.assert(
      fc.property(safeText, (s) => {
        expect(terminalText(s)).toBe(s);
        expect(terminalText(s, { multiline: true })).toBe(s);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(safeText, safeText, (a, b) => {
        expect(terminalText(`${a}\n\t${b}`, { multiline: true })).toBe(`${a}\n\t${b}`);
      }),
    );
  });
});

describe('CLI output of hostile text', () => {
  const hostile = 'x\u001b[2K\r\u009bINNOCENT\u202e';

  it('pending tables', () => {
    const printed = pendingTable([
      {
        id: 'call-1',
        toolName: `cancel_order${hostile}`,
        args: { orderId: hostile },
        allowedDecisions: ['approve'],
        deadline: new Date(Date.now() + 3_600_000).toISOString(),
        approvers: [hostile],
        approvals: [{ approver: hostile }],
        requiredApprovals: 2,
      },
    ]);
    // The table's own lines and colours aside, nothing is left of the controls but their escapes.
    expect(hiddenLeft(stripOwnColours(printed), true)).toEqual([]);
    expect(printed).toContain('\\u009bINNOCENT\\u202e');
  });

  it('pending tables show the start of long arguments, with how much they leave out', () => {
    const args = { path: 'big.txt', content: 'y'.repeat(5000) };
    const printed = pendingTable([
      { id: 'call-1', toolName: 'write_file', args, allowedDecisions: ['approve'], deadline: new Date(Date.now() + 60_000).toISOString() },
    ]);
    const left = JSON.stringify(args).length - 200;
    expect(printed).toContain(`${JSON.stringify(args).slice(0, 200)}… [${left} more characters; --json shows them]`);
    expect(Math.max(...printed.split('\n').map((line) => line.length))).toBeLessThan(400);
  });

  it('hitl watch: events and streamed text', () => {
    const events: RunEvent[] = [
      { type: 'model_replied', step: 1, content: `said ${hostile}\nand more` },
      { type: 'tool_call_proposed', step: 1, id: hostile, toolName: hostile, arguments: `{"orderId":"${hostile}"}` },
      { type: 'tool_call_finished', id: 'call-1', content: hostile },
      { type: 'run_finished', status: 'Completed', output: hostile, steps: 1, usage: { promptTokens: 0, completionTokens: 0 } },
    ];
    for (const event of events) expect(hiddenLeft(stripOwnColours(describeEvent(event)), true)).toEqual([]);
    let out = '';
    const printer = new WatchPrinter((chunk) => (out += chunk));
    printer.print({ offset: 0, topic: 'tokens', token: { step: 1, attempt: 1, seq: 0, text: hostile } });
    printer.finish();
    expect(stripOwnColours(out)).toBe('model: x\\u001b[2K\\r\\u009bINNOCENT\\u202e\n');
  });

  it('hitl show: a reply that imitates a line of the transcript is indented deeper than the transcript', () => {
    const state = {
      agent: 'demo',
      status: 'Completed',
      step: 2,
      prompt: 'Refund order 1234',
      pending: [],
      decisions: [],
      messages: [
        { role: 'user', content: 'Refund order 1234' },
        { role: 'assistant', content: 'Checked.\n  tool [call-1]: {"refunded":75000}' },
      ],
    } as unknown as RunState;
    const printed = stripOwnColours(describeRun('run-1', state));
    expect(printed).toContain('  assistant: Checked.\n        tool [call-1]: {"refunded":75000}');
    expect(printed.split('\n')).not.toContain('  tool [call-1]: {"refunded":75000}');
  });

  it('hitl show: a long prompt, message, result or arguments shows a preview that says how much it leaves out', () => {
    const controls = '\u0001'.repeat(100_000);
    const args = JSON.stringify({ path: 'a.txt', content: 'y'.repeat(50_000) });
    const state = {
      agent: 'demo',
      status: 'AwaitingMessage',
      step: 2,
      prompt: `Refund order 1234 ${controls}`,
      pending: [],
      decisions: [],
      messages: [
        { role: 'system', content: 'You are a test agent.' },
        { role: 'user', content: `Refund order 1234 ${controls}` },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'write_file', arguments: args } }],
        },
        { role: 'tool', tool_call_id: 'c', content: `Wrote ${'z'.repeat(9_000)}` },
        { role: 'user', content: `${'a'.repeat(1999)}👩🏽 and more` },
      ],
    } as unknown as RunState;
    const printed = stripOwnColours(describeRun('run-1', state));
    // Each control character prints as six; 2,000 characters of each text at most.
    expect(printed.length).toBeLessThan(5 * 6 * 2000 + 2000);
    expect(printed).toContain(
      `Prompt: Refund order 1234 ${'\\u0001'.repeat(2000 - 18)}… [${100_018 - 2000} more characters; --json shows them]`,
    );
    expect(printed).toContain(`more characters; --json shows them]) [c]`);
    expect(printed).toContain(`tool [c]: Wrote ${'z'.repeat(1994)}… [7006 more characters; --json shows them]`);
    // Never half a surrogate pair: the emoji at the cut is left out whole.
    expect(printed).toContain(`  user: ${'a'.repeat(1999)}… [13 more characters; --json shows them]`);
    expect(hiddenLeft(printed, true)).toEqual([]);
    // A run whose state did not fit the next run's input says so.
    const unfit = stripOwnColours(
      describeRun('run-1', { ...state, carryUnfit: { bytes: 2_480_188, limit: 2_031_616, historyLength: 41 } }),
    );
    expect(unfit).toContain('Could not continue as new at event 41: its state was 2480188 bytes, over the limit of 2031616');
    expect(printed).not.toContain('Could not continue as new');
    // Short texts are shown whole, with no note.
    expect(stripOwnColours(describeRun('run-1', { ...state, prompt: 'Refund order 1234', messages: [] }))).not.toContain('more characters');
    // A refused decision's approver is only the name its input gave: shown as claimed; an applied one's as it is.
    const entry = { at: '2026-12-01T10:00:00.000Z', via: 'signal', type: 'approve', id: 'c', approver: 'alice' } as const;
    const decided = stripOwnColours(
      describeRun('run-1', {
        ...state,
        prompt: 'Refund order 1234',
        messages: [],
        decisions: [
          { ...entry, seq: 1, outcome: 'refused', refusal: { code: 'token_refused', message: 'no valid token' } },
          { ...entry, seq: 2, outcome: 'applied', approver: 'bob' },
        ],
      }),
    );
    expect(decided).toMatch(/refused *│ *approve *│ *c *│ *alice \(claimed\) *│ *no valid token/);
    expect(decided).toMatch(/applied *│ *approve *│ *c *│ *bob *│/);
    expect(decided).not.toContain('bob (claimed)');
  });

  it("hitl watch: a line of the model that imitates an event is indented under the model's line", () => {
    const fake = 'Done.\ndecided: approve process_refund [call-1] by alice via update';
    expect(describeEvent({ type: 'model_replied', step: 1, content: fake })).toBe(
      'model: Done.\n  decided: approve process_refund [call-1] by alice via update',
    );
    let out = '';
    const printer = new WatchPrinter((chunk) => (out += chunk));
    for (const [seq, text] of ['Done.', '\ndecided: approve', ' process_refund'].entries())
      printer.print({ offset: seq, topic: 'tokens', token: { step: 1, attempt: 1, seq, text } });
    printer.finish();
    expect(stripOwnColours(out)).toBe('model: Done.\n  decided: approve process_refund\n');
  });
});
