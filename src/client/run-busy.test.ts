import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { RUN_BUSY_TYPE } from '../contract/refusal-codes.js';
import { isRunBusy, sendWhileBusy } from './run-busy.js';

const busy = () =>
  new WorkflowUpdateFailedError('refused', ApplicationFailure.create({ type: RUN_BUSY_TYPE, message: 'busy', nonRetryable: true }));
const refused = () =>
  new WorkflowUpdateFailedError('refused', ApplicationFailure.create({ type: 'DecisionRefused', message: 'no', nonRetryable: true }));

describe('updates a run refuses as busy', () => {
  it('tells a busy refusal from others', () => {
    expect(isRunBusy(busy())).toBe(true);
    expect(isRunBusy(refused())).toBe(false);
    expect(isRunBusy(new Error(RUN_BUSY_TYPE))).toBe(false);
  });

  it('are sent again until the run takes them', async () => {
    let sent = 0;
    const result = await sendWhileBusy(async () => {
      sent += 1;
      if (sent < 3) throw busy();
      return 'taken';
    });
    expect(result).toBe('taken');
    expect(sent).toBe(3);
  });

  it('surface any other refusal at once', async () => {
    let sent = 0;
    const err = refused();
    await expect(
      sendWhileBusy(async () => {
        sent += 1;
        throw err;
      }),
    ).rejects.toBe(err);
    expect(sent).toBe(1);
  });

  it('give up after seven tries, with the last refusal', async () => {
    let sent = 0;
    await expect(
      sendWhileBusy(async () => {
        sent += 1;
        throw busy();
      }),
    ).rejects.toSatisfy(isRunBusy);
    expect(sent).toBe(7);
  });
});
