import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { argsHash } from './args-hash.js';

describe('argsHash', () => {
  it('is SHA-256 of the RFC 8785 canonical JSON', () => {
    const canonical = '{"amount":1e+21,"list":[3,"x"],"orderId":"12","z":{"a":true,"b":null}}';
    const expected = `sha256:${createHash('sha256').update(canonical).digest('hex')}`;
    expect(argsHash({ z: { b: null, a: true }, orderId: '12', list: [3, 'x'], amount: 1e21 })).toBe(expected);
  });

  it('ignores key order and changes with any value', () => {
    expect(argsHash({ a: 1, b: 2 })).toBe(argsHash({ b: 2, a: 1 }));
    expect(argsHash({ a: 1, b: 2 })).not.toBe(argsHash({ a: 1, b: 3 }));
    expect(argsHash({ a: 1 })).not.toBe(argsHash({ a: '1' }));
  });
});
