import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationText, durationToMs } from './duration.js';

describe('durationText', () => {
  it('writes a duration that reads back exactly, in its largest exact unit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e13 }), (milliseconds) => {
        expect(durationToMs(durationText(milliseconds))).toBe(milliseconds);
        expect(durationToMs(durationText(milliseconds, true))).toBe(milliseconds);
      }),
    );
    expect([90_000, 900_000, 86_400_000, 1500, 7_200_000].map((m) => durationText(m))).toEqual(['90s', '15m', '1d', '1500ms', '2h']);
    expect([90_000, 86_400_000, 172_800_000].map((m) => durationText(m, true))).toEqual(['90 seconds', '1 day', '2 days']);
    // What a parse leaves: floating-point dust, and sizes past any real deadline, still read as a number of a unit.
    expect(durationText(durationToMs('1.005s'))).toBe('1005ms');
    expect(durationText(durationToMs('0.5ms'))).toBe('0.5ms');
    expect(durationText(durationToMs('100000000000000000000d'))).toBe('100000000000000000000d');
  });
});
