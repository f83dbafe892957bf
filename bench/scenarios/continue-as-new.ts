/**
 * The largest single history of a 1,000-step session, which needs continue-as-new. That feature is being built
 * elsewhere: detect it (an `AgentWorkflowInput` field `session` or a `continueAsNew` option) and measure it if
 * present, with the feature's defaults (it continues as new when Temporal suggests it).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AgentWorkflowInput } from '../../src/schemas/agent-workflow-input.js';
import { BENCH_AGENT, benchScript, PROMPTS } from '../bench-agent.js';
import { uniqueName, type BenchContext, type WorkerChild } from '../context.js';
import type { BenchResults } from '../schema.js';
import { round } from '../stats.js';

export const SESSION_STEPS = 1000;
const INPUT_SCHEMA_FILE = fileURLToPath(new URL('../../src/schemas/agent-workflow-input.ts', import.meta.url));

export const NOT_LANDED = 'not measured yet: continue-as-new has not landed';

/** How continue-as-new shows up, if it has landed; undefined otherwise. */
export function detectContinueAsNew(): string | undefined {
  const shape = (AgentWorkflowInput as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  const fields = ['session', 'continueAsNew'].filter((field) => field in shape);
  if (fields.length) return fields.map((f) => `AgentWorkflowInput.${f}`).join(', ');
  if (/\bcontinueAsNew\b/.test(readFileSync(INPUT_SCHEMA_FILE, 'utf8')))
    return 'a continueAsNew option in src/schemas/agent-workflow-input.ts';
  return undefined;
}

type ContinueAsNewResult = BenchResults['history']['continueAsNew'];

export async function measureContinueAsNew(ctx: BenchContext, worker: WorkerChild): Promise<ContinueAsNewResult> {
  const detectedBy = detectContinueAsNew();
  if (!detectedBy) return { status: 'not-landed', message: NOT_LANDED };
  if (ctx.settings.mode === 'quick') {
    return {
      status: 'skipped',
      detectedBy,
      message: `continue-as-new has landed (${detectedBy}); the ${SESSION_STEPS}-step session runs in the full benchmark only`,
    };
  }
  const workflowId = uniqueName('session');
  ctx.model.setScript(benchScript(SESSION_STEPS - 1));
  const started = Date.now();
  try {
    // One turn of 1,000 automatic steps: the worst case for history, since every model call carries the transcript.
    const handle = await ctx.client.workflow.start('agentWorkflow', {
      taskQueue: worker.taskQueue,
      workflowId,
      args: [{ agent: BENCH_AGENT, prompt: PROMPTS.steps, maxSteps: SESSION_STEPS }],
    });
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('no result within 30 minutes')), 30 * 60_000).unref(),
    );
    const result = (await Promise.race([handle.result(), timeout]).catch(async (err: unknown) => {
      await handle.terminate('bench: session did not finish').catch(() => {});
      throw err;
    })) as { status: string; steps: number };
    if (result.steps !== SESSION_STEPS) throw new Error(`the session ended after ${result.steps} steps (${result.status})`);
    await worker.request('marks', { workflowIds: [workflowId] });
    // Every run of the chain, from visibility (a run's history can outgrow a client's 4 MB message limit).
    const runs: { events: number; bytes: number }[] = [];
    for await (const run of ctx.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
      runs.push({ events: run.historyLength, bytes: run.historySize ?? 0 });
    }
    const largestBytes = runs.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    const largestEvents = Math.max(...runs.map((r) => r.events));
    const seconds = round((Date.now() - started) / 1000, 0);
    return {
      status: 'measured',
      detectedBy,
      steps: SESSION_STEPS,
      runs: runs.length,
      seconds,
      largestHistory: { events: largestBytes.events, bytes: largestBytes.bytes },
      mostEvents: largestEvents,
      message: `a ${SESSION_STEPS}-step run continued as new ${runs.length - 1} times (feature defaults); the largest single history held ${largestBytes.events} events, ${largestBytes.bytes} bytes`,
    };
  } catch (err) {
    return {
      status: 'failed',
      detectedBy,
      message: `continue-as-new has landed but the ${SESSION_STEPS}-step run did not complete: ${(err as Error).message}`,
    };
  } finally {
    ctx.model.setScript(benchScript(ctx.settings.steps - 1));
  }
}
