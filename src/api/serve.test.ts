/** The API checks its settings before it connects: a bad one is said at once, even while Temporal cannot be reached. */
import { describe, expect, it } from 'vitest';
import { readEnvConfig } from '../config.js';
import { startApiServer } from './serve.js';

describe('startApiServer', () => {
  it('refuses bad tokens without waiting for Temporal', { timeout: 10_000 }, async () => {
    // Nothing listens on port 1: connecting would retry for ever.
    const config = readEnvConfig({
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      HITL_API_TOKENS:
        '{"tok-aaaaaaaaaaaaaaaa": {"approver": "finance"}, "tok-bbbbbbbbbbbbbbbb": {"approver": "ann", "groups": ["finance"]}}',
    });
    await expect(startApiServer(config)).rejects.toThrow(/^Invalid HITL_API_TOKENS:\n✖ "finance" is both a person and a group/);
  });
});
