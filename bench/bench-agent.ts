/**
 * The agent the benchmarks run, its instant tools and the scripted model's conversations. The agent is real
 * (validated by `defineAgent`, resolved by the worker like any other); its tools are registered specs
 * (`read_data`, `write_file`) with instant implementations so the numbers measure the workflow, not a database.
 */
import { defineAgent } from '../src/agents/define-agent.js';
import type { ModelScriptInput } from '../src/model-server/script-schema.js';
import { implementTool, type ToolImplementation } from '../src/tools/implement-tool.js';
import { readData } from '../src/tools/specs/read-data.js';
import { writeFile } from '../src/tools/specs/write-file.js';

export const BENCH_AGENT = 'bench';

export const benchAgent = defineAgent({
  name: BENCH_AGENT,
  instructions: 'You are a benchmark agent. Call the tools you are asked to call, then answer "done".',
  model: 'scripted-model',
  tools: ['read_data', 'write_file'],
  // read_data runs without approval (automatic steps); write_file always waits for a human (gated steps). Neither
  // spec has `describe: true`, which would add one activity before a gated call is announced.
  approval: { tools: { read_data: false, write_file: true } },
  maxSteps: 100_000,
});

/** Instant tools: no I/O, a short result. */
export function benchTools(): Record<string, ToolImplementation> {
  return {
    read_data: implementTool(readData, () => '[]') as unknown as ToolImplementation,
    write_file: implementTool(
      writeFile,
      ({ path, content }) => `Wrote ${content.length} bytes to ${path}.`,
    ) as unknown as ToolImplementation,
  };
}

export const PROMPTS = {
  /** One gated write_file call, then a final answer. */
  gated: 'bench: gated tool call',
  /** `steps - 1` automatic read_data calls, then a final answer: a run of `steps` model calls. */
  steps: 'bench: automatic steps',
  /** A final answer at once (the fixed cost of a run, for history arithmetic). */
  direct: 'bench: direct answer',
} as const;

/** Automatic read_data steps before the gated call, by prompt: the evicted-run scenario's history sizes. */
export const EVICTED_STEPS = [12, 140] as const;
export const evictedPrompt = (steps: number) => `bench: evicted [${steps}] steps, then a gated call`;

/** The gated call is the run's first, so it gets the run's first call id; the model names it otherwise. */
export const GATED_CALL_ID = 'call-1';
const GATED_CALL_MODEL_ID = 'call_write';
export const GATED_CALL = { name: 'write_file', arguments: { path: 'bench.txt', content: 'approved' } };

export function benchScript(automaticSteps: number): ModelScriptInput {
  return {
    conversations: [
      {
        match: PROMPTS.gated,
        replies: [{ toolCalls: [{ id: GATED_CALL_MODEL_ID, ...GATED_CALL }] }, { content: 'done' }],
      },
      {
        match: PROMPTS.steps,
        replies: [
          { toolCalls: [{ id: 'call_read', name: 'read_data', arguments: { table: 'orders' } }], repeat: automaticSteps },
          { content: 'done' },
        ],
      },
      { match: PROMPTS.direct, replies: [{ content: 'done' }] },
      ...EVICTED_STEPS.map((steps) => ({
        match: evictedPrompt(steps),
        replies: [
          { toolCalls: [{ id: 'call_read', name: 'read_data', arguments: { table: 'orders' } }], repeat: steps },
          { toolCalls: [{ id: GATED_CALL_MODEL_ID, ...GATED_CALL }] },
          { content: 'done' },
        ],
      })),
    ],
  };
}
