/** What a run sheds so that the input it continues as new with fits in one payload, and what it never sheds. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../contract/limits.js';
import type { ChatMessage } from '../schemas/chat-message.js';
import { fitNextRunInput, nextRunInputBytes, type NextRunInput } from './carry-fit.js';

const KiB = 1024;
const text = (bytes: number, fill = 'x') => fill.repeat(bytes);

/** The parts the shedding reads, and the ones it must leave alone; the rest of a carried state does not matter here. */
function nextRun(parts: { prompt?: number; messages?: number[]; queued?: number[]; audit?: number; decided?: number }): NextRunInput {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are a test agent.' },
    ...(parts.messages ?? []).map((bytes, i): ChatMessage =>
      i % 2 ? { role: 'assistant', content: text(bytes, 'a') } : { role: 'user', content: text(bytes, 'u') },
    ),
  ];
  return {
    agent: 'demo',
    prompt: text(parts.prompt ?? 10, 'p'),
    carry: {
      messages,
      messagesDropped: 3,
      queuedMessages: (parts.queued ?? []).map((bytes) => text(bytes, 'q')),
      calls: [{ id: 'call-9', name: 'write_file', args: { content: text(KiB) } }],
      audit: Array.from({ length: parts.audit ?? 0 }, (_, i) => ({ seq: 11 + i, at: '2026-11-30T00:00:00.000Z', note: text(KiB) })),
      auditDropped: 10,
      decided: Array.from({ length: parts.decided ?? 0 }, (_, i) => [`call-${i + 1}`, { type: 'approve', approver: text(200) }]),
      policyOutcomes: [{ call: 'call-9', reason: text(KiB) }],
      modelCalls: { entries: [{ model: 'm', note: text(KiB) }], retries: 2 },
    },
  } as unknown as NextRunInput;
}

/** What the next run cannot go on without: shedding never touches it. */
function kept(input: NextRunInput) {
  const {
    messages: _m,
    messagesDropped: _d,
    audit: _a,
    auditDropped: _ad,
    decided: _dc,
    policyOutcomes: _p,
    modelCalls,
    ...rest
  } = input.carry;
  return { ...input, carry: { ...rest, retries: modelCalls.retries } };
}

describe('fitNextRunInput', () => {
  it('leaves an input that fits as it is', () => {
    const input = nextRun({ messages: [100 * KiB, 100 * KiB], audit: 5 });
    expect(fitNextRunInput(input)).toEqual({ input, bytes: nextRunInputBytes(input) });
  });

  it('cuts the transcript first, keeping its system message and newest message whole', () => {
    const input = nextRun({ prompt: 600 * KiB, queued: [500 * KiB], messages: [400 * KiB, 300 * KiB, 64 * KiB, 200 * KiB], audit: 20 });
    expect(nextRunInputBytes(input)).toBeGreaterThan(2 * 1024 * KiB);

    const fitted = fitNextRunInput(input);
    expect(fitted.input).toBeDefined();
    const { carry } = fitted.input!;
    expect(fitted.bytes).toBe(nextRunInputBytes(fitted.input!));
    expect(fitted.bytes).toBeLessThanOrEqual(LIMITS.carriedInputBytes);
    expect(carry.messages[0]).toEqual(input.carry.messages[0]);
    expect(carry.messages.at(-1)).toEqual(input.carry.messages.at(-1));
    expect(carry.messages.some((m) => String(m.content).includes('more bytes cut: over the size limit'))).toBe(true);
    // Offsets go on counting every message the run held.
    expect(carry.messagesDropped + carry.messages.length).toBe(input.carry.messagesDropped + input.carry.messages.length);
    // The transcript was enough: the audit goes across whole.
    expect(carry.audit).toEqual(input.carry.audit);
    expect(kept(fitted.input!)).toEqual(kept(input));
  });

  it('then leaves audit entries, decided details and views behind, keeping the audit numbered', () => {
    // The transcript is its system message and newest message only: nothing of it can go.
    const input = nextRun({ prompt: 600 * KiB, queued: [500 * KiB, 500 * KiB], messages: [330 * KiB], audit: 100, decided: 300 });
    expect(nextRunInputBytes(input)).toBeGreaterThan(LIMITS.carriedInputBytes);

    const { carry } = fitNextRunInput(input).input!;
    expect(carry.messages).toEqual(input.carry.messages);
    expect(carry.audit).toEqual([]);
    expect(carry.auditDropped).toBe(110);
    expect(carry.decided).toEqual(input.carry.decided.slice(-100));
    expect(carry.policyOutcomes).toEqual([]);
    expect(carry.modelCalls).toEqual({ entries: [], retries: 2 });
    expect(kept({ ...input, carry })).toEqual(kept(input));
  });

  it('gives up, saying how large, when what the next run needs does not fit', () => {
    const input = nextRun({ prompt: 600 * KiB, queued: [500 * KiB, 500 * KiB, 500 * KiB], messages: [300 * KiB, 10], audit: 100 });
    const fitted = fitNextRunInput(input);
    expect(fitted.input).toBeUndefined();
    expect(fitted.bytes).toBeGreaterThan(LIMITS.carriedInputBytes);
  });

  it('fits whenever what cannot be shed fits, and sheds nothing the next run needs', () => {
    const size = fc.integer({ min: 0, max: 900 * KiB });
    const seen = { shed: 0, unfit: 0 };
    fc.assert(
      fc.property(
        fc.record({
          prompt: size,
          queued: fc.array(size, { maxLength: 3 }),
          messages: fc.array(size, { maxLength: 8 }),
          audit: fc.nat(300),
        }),
        (parts) => {
          const input = nextRun(parts);
          const fitted = fitNextRunInput(input);
          const floor = nextRun({ ...parts, messages: parts.messages.slice(-1), audit: 0 });
          if (fitted.input) {
            if (fitted.input !== input) seen.shed++;
            expect(fitted.bytes).toBeLessThanOrEqual(LIMITS.carriedInputBytes);
            expect(kept(fitted.input)).toEqual(kept(input));
          } else {
            seen.unfit++;
            expect(nextRunInputBytes(floor)).toBeGreaterThan(LIMITS.carriedInputBytes - 4 * KiB);
          }
        },
      ),
      { numRuns: 100 },
    );
    // Both ways out were taken.
    expect(seen.shed).toBeGreaterThan(0);
    expect(seen.unfit).toBeGreaterThan(0);
    // A hundred inputs of up to megabytes each, serialized several times: 15 s alone on a busy 2-core machine.
  }, 90_000);
});
