/** bench/activation-times.ts: the lines the worker writes, read per side. Pure: no server. */
import { describe, expect, it } from 'vitest';
import { activationTimes } from '../../bench/activation-times.js';

const queues = { ours: 'bench-agent-1', floor: 'bench-floor-1' };

describe('activationTimes', () => {
  it('matches each sandbox line to its side by the run the worker line names', () => {
    const lines = [
      'worker bench-agent-1 run-a 3000',
      'sandbox run-a 2000 23',
      'worker bench-floor-1 run-b 2400',
      'sandbox run-b 1300 21',
      'worker bench-agent-1 run-c 3400',
      'sandbox run-c 2200 25',
      '',
    ].join('\n');
    const times = activationTimes(lines, queues);
    expect(times.ours!.sandbox).toMatchObject({ n: 2, p50: 2100, min: 2000, max: 2200 });
    expect(times.ours!.worker).toMatchObject({ n: 2, p50: 3200 });
    expect(times.ours!.promises).toBe(24);
    expect(times.floor!.sandbox).toMatchObject({ n: 1, p50: 1300 });
    expect(times.floor!.promises).toBe(21);
  });

  it('leaves out runs of other task queues, sandbox lines of no known run, and sides with nothing seen', () => {
    const lines = [
      'worker other-queue run-x 900',
      'sandbox run-x 800 3',
      'sandbox run-unknown 700 2',
      'worker bench-agent-1 run-a 3000',
      'sandbox run-a 2000 23',
    ].join('\n');
    const times = activationTimes(lines, queues);
    expect(Object.keys(times)).toEqual(['ours']);
    expect(times.ours!.sandbox.n).toBe(1);
  });
});
