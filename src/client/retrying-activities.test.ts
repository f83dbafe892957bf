import type { WorkflowExecutionDescription } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { RetryingActivity } from '../schemas/retrying-activity.js';
import { retryingActivities } from './run-health.js';

type Pending = NonNullable<WorkflowExecutionDescription['raw']['pendingActivities']>[number];
const description = (status: string, pendingActivities: Pending[]) =>
  ({ status: { name: status }, raw: { pendingActivities } }) as unknown as WorkflowExecutionDescription;
// Seconds as a number, as the JSON form of a description has them (the reader takes a Long or a number).
const at = (iso: string) => ({ seconds: Date.parse(iso) / 1000, nanos: 0 }) as unknown as Pending['nextAttemptScheduleTime'];

describe('retryingActivities', () => {
  it('lists the activities past their first attempt with a failure, as the schema reads them', () => {
    const found = retryingActivities(
      description('RUNNING', [
        {
          activityType: { name: 'callModel' },
          attempt: 4,
          maximumAttempts: 10,
          lastFailure: { message: 'API down' },
          nextAttemptScheduleTime: at('2026-11-29T00:00:08Z'),
        },
        { activityType: { name: 'executeTool' }, attempt: 1 },
        { activityType: { name: 'notify' }, attempt: 3, maximumAttempts: 0, lastFailure: { message: '' } },
      ]),
    );
    expect(found).toEqual([
      { activity: 'callModel', attempt: 4, maximumAttempts: 10, lastFailure: 'API down', nextAttemptAt: '2026-11-29T00:00:08.000Z' },
      // Unlimited attempts (0) and a failure without a message still say what they can.
      { activity: 'notify', attempt: 3, lastFailure: 'no message' },
    ]);
    for (const entry of found) expect(RetryingActivity.parse(entry)).toEqual(entry);
  });

  it('bounds a long failure message', () => {
    const [entry] = retryingActivities(
      description('RUNNING', [{ activityType: { name: 'executeTool' }, attempt: 2, lastFailure: { message: 'x'.repeat(5000) } }]),
    );
    expect(entry!.lastFailure).toHaveLength(2000);
  });

  it('lists nothing for a run that has ended, or whose activities have not failed', () => {
    const failing = { activityType: { name: 'callModel' }, attempt: 2, lastFailure: { message: 'x' } };
    expect(retryingActivities(description('COMPLETED', [failing]))).toEqual([]);
    expect(retryingActivities(description('RUNNING', [{ ...failing, lastFailure: null }]))).toEqual([]);
    expect(retryingActivities(description('RUNNING', []))).toEqual([]);
  });
});
