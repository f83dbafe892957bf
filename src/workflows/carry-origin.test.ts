import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromChain } from './carry-origin.js';

const first = 'run-first';
const continued = { continuedFromExecutionRunId: 'run-before', firstExecutionRunId: first };

describe('which carried states a run takes', () => {
  it('takes a carry that names its chain, or (from older code) the run it continued from last', () => {
    expect(fromChain({ firstRunId: first, previousRunIds: ['elsewhere'] }, continued)).toBe(true);
    expect(fromChain({ previousRunIds: ['run-0', 'run-before'] }, continued)).toBe(true);
  });

  it('refuses every carry in a run a caller started, which continued from nothing', () => {
    const started = { firstExecutionRunId: first };
    expect(fromChain({ firstRunId: first }, started)).toBe(false);
    expect(fromChain({ previousRunIds: [first] }, started)).toBe(false);
  });

  it("refuses another chain's carry, and an older carry whose last run is not the one it continued from", () => {
    expect(fromChain({ firstRunId: 'run-other', previousRunIds: ['run-before'] }, continued)).toBe(false);
    expect(fromChain({ previousRunIds: ['run-before', 'run-other'] }, continued)).toBe(false);
    expect(fromChain({ previousRunIds: [] }, continued)).toBe(false);
  });

  it('refuses what is not a carry, without throwing', () => {
    for (const carry of [undefined, null, 0, 'run-before', ['run-before'], { previousRunIds: 'run-before' }, { firstRunId: 1 }])
      expect(fromChain(carry, continued)).toBe(false);
  });

  it('refuses any carry in a chain a caller started, and any carry written without knowing the chain', () => {
    // A caller writes the carry before the server makes the run ids: here, ids drawn after the carry is.
    fc.assert(
      fc.property(fc.anything(), fc.uuid(), fc.option(fc.uuid(), { nil: undefined }), (carry, firstId, fromId) => {
        expect(fromChain(carry, { firstExecutionRunId: firstId })).toBe(false);
        if (fromId !== undefined)
          expect(fromChain(carry, { firstExecutionRunId: firstId, continuedFromExecutionRunId: fromId })).toBe(false);
      }),
    );
  });
});
