import { describe, expect, it } from 'vitest';
import * as errors from './errors.js';
import { DecisionRefusedError, HitlError, RunNotFoundError, ToolRefusedError } from './errors.js';

describe('errors', () => {
  it('every error class keeps the stable name it fails runs with', () => {
    const classes = (Object.values(errors) as unknown[]).filter(
      (value): value is { errorName: string; name: string } => typeof value === 'function' && 'errorName' in value,
    );
    expect(classes.length).toBeGreaterThanOrEqual(12);
    for (const cls of classes) expect(cls.errorName).toBe(cls.name);
  });

  it('instanceof matches by brand and name, also for errors from another copy of the module', () => {
    const refused = new DecisionRefusedError('unknown_call', 'no such call');
    expect(refused).toBeInstanceOf(DecisionRefusedError);
    expect(refused).toBeInstanceOf(HitlError);
    expect(refused).not.toBeInstanceOf(RunNotFoundError);
    // What the workflow sandbox's own copy of this module would create: same brand, another prototype chain.
    const foreign = Object.assign(new Error('elsewhere'), { name: 'ToolRefusedError' });
    Object.defineProperty(foreign, Symbol.for('temporal-hitl-agent.error'), { value: true });
    expect(foreign).toBeInstanceOf(ToolRefusedError);
    expect(Object.assign(new Error('x'), { name: 'ToolRefusedError' })).not.toBeInstanceOf(ToolRefusedError);
    expect(null).not.toBeInstanceOf(HitlError);
  });

  it('becomes a non-retryable Temporal failure typed by its name and carrying its code', () => {
    const failure = new RunNotFoundError('run-1').toFailure();
    expect(failure).toMatchObject({ type: 'RunNotFoundError', nonRetryable: true, details: [{ code: 'run_not_found' }] });
  });
});
