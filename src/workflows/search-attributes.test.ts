import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from '../bounds/truncate.js';
import { withinValueLimit } from './search-attributes.js';

describe('HitlPendingTools within Temporal’s 2 KiB a value', () => {
  it('keeps every name that fits, in order, and says the rest with …', () => {
    const names = Array.from({ length: 32 }, (_, i) => `server_${String(i).padStart(2, '0')}__${'t'.repeat(50)}`);
    const kept = withinValueLimit(names);
    expect(utf8Length(JSON.stringify(names))).toBeGreaterThan(2048);
    expect(kept.at(-1)).toBe('…');
    expect(kept.slice(0, -1)).toEqual(names.slice(0, kept.length - 1));
    expect(utf8Length(JSON.stringify(kept))).toBeLessThanOrEqual(1800);
    expect(withinValueLimit(['a', 'b'])).toEqual(['a', 'b']);
    // At the bound exactly, and a byte past it.
    expect(withinValueLimit(['x'.repeat(1796)])).toEqual(['x'.repeat(1796)]);
    expect(withinValueLimit(['x'.repeat(1797)])).toEqual(['…']);
  });

  it('never passes 1,800 bytes of JSON, and keeps lists that fit whole', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 64, unit: 'binary' }), { maxLength: 200 }), (names) => {
        const kept = withinValueLimit(names);
        expect(utf8Length(JSON.stringify(kept))).toBeLessThanOrEqual(1800);
        if (utf8Length(JSON.stringify(names)) <= 1800) expect(kept).toEqual(names);
        else expect(kept.at(-1)).toBe('…');
      }),
    );
  });
});
