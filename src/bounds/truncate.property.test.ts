/**
 * The two measures of text (UTF-8, and JSON as a payload holds it) and cutting by each. Property tests over any
 * UTF-16 code units: control characters, quotes, backslashes, pairs and lone surrogates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutMarker } from '../contract/limits.js';
import { jsonStringBytes, recutBytes, truncateBytes, truncateJsonBytes, utf8Length } from './truncate.js';

/** Any string of UTF-16 code units, weighted toward the ones JSON escapes or that need two units. */
const anyText = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0x1f }),
      fc.constantFrom(0x22, 0x5c, 0x2028, 0xd83d, 0xde00, 0xdc00),
      fc.integer({ min: 0x20, max: 0x7f }),
      fc.integer({ min: 0, max: 0xffff }),
    ),
    { maxLength: 80 },
  )
  .map((codes) => String.fromCharCode(...codes));

/** truncateBytes as it was before the JSON measure came: replayed runs must cut exactly where they cut live. */
function truncateBytesBefore(text: string, maxBytes: number): string {
  const total = utf8Length(text);
  if (total <= maxBytes) return text;
  const marker = cutMarker(total);
  const budget = Math.max(0, maxBytes - utf8Length(marker));
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    const pair = code >= 0xd800 && code <= 0xdbff && end + 1 < text.length;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > budget) break;
    bytes += size;
    end += pair ? 2 : 1;
  }
  return `${text.slice(0, end)}${cutMarker(total - bytes)}`;
}

describe('jsonStringBytes', () => {
  it('is the size of the text in the JSON a payload holds, without its quotes', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(jsonStringBytes(text)).toBe(Buffer.byteLength(JSON.stringify(text), 'utf8') - 2);
      }),
      { numRuns: 2000 },
    );
  });

  it('counts a control character six times, where UTF-8 counts it once', () => {
    const controls = '\u0001'.repeat(1000);
    expect(utf8Length(controls)).toBe(1000);
    expect(jsonStringBytes(controls)).toBe(6000);
    expect(jsonStringBytes('a"b\\c\n')).toBe(9);
    expect(jsonStringBytes('😀')).toBe(4);
    expect(jsonStringBytes('\ud83d')).toBe(6);
  });
});

describe('truncateJsonBytes', () => {
  it('keeps text that fits, and cuts the rest to a prefix with a marker that fits', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 0, max: 400 }), (text, max) => {
        const cut = truncateJsonBytes(text, max);
        if (jsonStringBytes(text) <= max) {
          expect(cut).toBe(text);
          return;
        }
        const marker = cut.slice(cut.lastIndexOf('…['));
        expect(marker).toBe(cutMarker(jsonStringBytes(text) - jsonStringBytes(cut.slice(0, -marker.length))));
        expect(text.startsWith(cut.slice(0, -marker.length))).toBe(true);
        expect(jsonStringBytes(cut)).toBeLessThanOrEqual(Math.max(max, jsonStringBytes(marker)));
      }),
      { numRuns: 2000 },
    );
  });

  it('never splits a surrogate pair', () => {
    const text = `${'😀'.repeat(50)}`;
    for (let max = 40; max < 200; max++) {
      const kept = truncateJsonBytes(text, max).split('…[')[0]!;
      expect(kept.length % 2).toBe(0);
    }
  });
});

describe('truncateBytes', () => {
  it('cuts exactly where it cut before the JSON measure came', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 0, max: 400 }), (text, max) => {
        expect(truncateBytes(text, max)).toBe(truncateBytesBefore(text, max));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('recutBytes', () => {
  /** The bytes a marker at the end of `text` says were cut, and what comes before it. */
  const parts = (text: string) => {
    const at = text.lastIndexOf('…[');
    return { kept: text.slice(0, at), said: Number(/^…\[(\d+) /.exec(text.slice(at))![1]) };
  };

  it('cuts a cut text again within bounds, its marker counting what both cuts took', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), (tail, first, second) => {
        const text = `${'x'.repeat(60)}${tail}`;
        const once = truncateBytes(text, 60 + first);
        const twice = recutBytes(once, 50 + second);
        expect(utf8Length(twice)).toBeLessThanOrEqual(Math.max(50 + second, utf8Length(cutMarker(utf8Length(text)))));
        if (twice === once) return;
        const { kept, said } = parts(twice);
        expect(text.startsWith(kept)).toBe(true);
        expect(said).toBe(utf8Length(text) - utf8Length(kept));
      }),
    );
  });

  it('cuts an uncut text as truncateBytes does', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 0, max: 100 }), (text, max) => {
        expect(recutBytes(text, max)).toBe(truncateBytes(text, max));
      }),
    );
  });
});
