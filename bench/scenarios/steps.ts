/**
 * Step overhead: a run of `steps` model calls with an instant scripted model and an instant, ungated tool,
 * against the floor running 2 × `steps` trivial activities in sequence. Repetitions alternate between the two.
 */
import type { AgentWorkflowInput } from '../../src/schemas/agent-workflow-input.js';
import { BENCH_AGENT, PROMPTS } from '../bench-agent.js';
import { uniqueName, type BenchContext, type WorkerChild } from '../context.js';
import { cpuMsOf, type ActivityMark } from '../ipc.js';
import type { BenchResults } from '../schema.js';
import { round, summarize } from '../stats.js';

export interface StepsResult {
  ours: BenchResults['stepOverhead']['ours'];
  floor: BenchResults['stepOverhead']['floor'];
  /** A measured run, for the history scenario. */
  stepsRunId: string;
}

export async function measureStepOverhead(ctx: BenchContext, worker: WorkerChild): Promise<StepsResult> {
  const { steps, stepRepetitions: reps } = ctx.settings;
  // The quick run's worker is already warm from the latency scenario.
  const warmup = ctx.settings.mode === 'quick' ? 0 : 1;
  const tag = uniqueName('steps');
  const perStep = { ours: [] as number[], floor: [] as number[] };
  const intervals = { ours: [] as number[], floor: [] as number[] };
  // CPU per step, which waiting for a busy machine's scheduler does not inflate: the worker process and the server.
  const cpu = { ours: { worker: 0, server: 0 }, floor: { worker: 0, server: 0 } };
  const serverPid = ctx.server.pid!;
  let stepsRunId = '';

  const startsOf = async (workflowId: string, activity: string) => {
    const marks = (await worker.request<Record<string, ActivityMark[]>>('marks', { workflowIds: [workflowId] }))[workflowId]!;
    return marks.filter((m) => m.activity === activity && m.phase === 'start').map((m) => m.at);
  };
  const gaps = (starts: number[]) => starts.slice(1).map((t, i) => t - starts[i]!);

  for (let r = 0; r < warmup + reps; r++) {
    const measured = r >= warmup;
    for (const side of r % 2 === 0 ? (['ours', 'floor'] as const) : (['floor', 'ours'] as const)) {
      const workflowId = `${tag}-${side}-${r}`;
      const [workerCpu0, serverCpu0] = [cpuMsOf(worker.pid), cpuMsOf(serverPid)];
      const started = Date.now();
      if (side === 'ours') {
        const handle = await ctx.client.workflow.start('agentWorkflow', {
          taskQueue: worker.taskQueue,
          workflowId,
          args: [{ agent: BENCH_AGENT, prompt: PROMPTS.steps, maxSteps: steps } satisfies AgentWorkflowInput],
        });
        const result = (await handle.result()) as { status: string; steps: number };
        if (result.status !== 'Completed' || result.steps !== steps) throw new Error(`${workflowId}: ${JSON.stringify(result)}`);
      } else {
        const handle = await ctx.client.workflow.start('floorStepsWorkflow', {
          taskQueue: worker.floorTaskQueue!,
          workflowId,
          args: [steps],
        });
        await handle.result();
      }
      const elapsed = Date.now() - started;
      if (measured) {
        cpu[side].worker += cpuMsOf(worker.pid) - workerCpu0;
        cpu[side].server += cpuMsOf(serverPid) - serverCpu0;
      }
      const starts = await startsOf(workflowId, side === 'ours' ? 'callModel' : 'floorStep');
      // The floor runs two activities per step: every other start begins a step.
      const stepStarts = side === 'ours' ? starts : starts.filter((_, i) => i % 2 === 0);
      if (stepStarts.length !== steps) throw new Error(`${workflowId}: ${stepStarts.length} step starts, expected ${steps}`);
      if (!measured) continue;
      perStep[side].push(elapsed / steps);
      intervals[side].push(...gaps(stepStarts));
      if (side === 'ours' && !stepsRunId) stepsRunId = workflowId;
    }
  }
  const cpuPerStep = (side: 'ours' | 'floor') => ({
    worker: round(cpu[side].worker / (reps * steps), 2),
    server: round(cpu[side].server / (reps * steps), 2),
  });
  return {
    ours: { perStepMs: summarize(perStep.ours), stepIntervalMs: summarize(intervals.ours), cpuMsPerStep: cpuPerStep('ours') },
    floor: { perStepMs: summarize(perStep.floor), stepIntervalMs: summarize(intervals.floor), cpuMsPerStep: cpuPerStep('floor') },
    stepsRunId,
  };
}
