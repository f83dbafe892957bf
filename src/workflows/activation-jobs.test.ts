import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carriesLateLocalResult, isRecordedStep, isRunStep, type Job } from './activation-jobs.js';

const localResult: Job = { resolveActivity: { isLocal: true } };
const activityResult: Job = { resolveActivity: { isLocal: false } };
const update: Job = { doUpdate: {} };
const signal: Job = { signalWorkflow: {} };
const query: Job = { queryWorkflow: {} };

describe('activation jobs', () => {
  it('says which activations bring a local result late', () => {
    expect(carriesLateLocalResult([update, localResult])).toBe(true);
    expect(carriesLateLocalResult([signal, localResult])).toBe(true);
    expect(carriesLateLocalResult([localResult])).toBe(false);
    expect(carriesLateLocalResult([update, activityResult])).toBe(false);
    expect(carriesLateLocalResult([query])).toBe(false);
  });

  it('does not count an update that comes with a late local result as a step: the run refuses it', () => {
    expect(isRunStep([update])).toBe(true);
    expect(isRunStep([update, localResult])).toBe(false);
    expect(isRunStep([signal, localResult])).toBe(true);
    expect(isRunStep([update, activityResult, localResult])).toBe(true);
  });

  it('counts every recorded step as a run step (property)', () => {
    const job = fc.constantFrom<Job>(localResult, activityResult, update, signal, query, { notifyHasPatch: {} }, { updateRandomSeed: {} });
    fc.assert(fc.property(fc.array(job, { maxLength: 6 }), (jobs) => !isRecordedStep(jobs) || isRunStep(jobs)));
  });
});
