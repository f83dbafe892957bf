/**
 * The pure half of a tool: name, description and zod schema, plus how its activity is scheduled. Safe to import
 * from workflow code; implementations live in `implementations/` and run only in activities.
 */
import type { Duration, RetryPolicy } from '@temporalio/common';
import { z } from 'zod';
import { TOOL_NAME } from './tool-names.js';

export interface ToolSpec<P extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  /** Validates the model's arguments; the JSON Schema the model sees is derived from it. */
  parameters: P;
  /** Start-to-close timeout of one attempt. @default '2m' */
  timeout?: Duration;
  /**
   * How soon a crashed worker's attempt is noticed and retried elsewhere. The activity heartbeats on its own
   * (every third of this) while the tool runs. @default '10s'
   */
  heartbeatTimeout?: Duration;
  /** @default { maximumAttempts: 3 } */
  retry?: RetryPolicy;
  /** What a failure after the last retry does: tell the model (`return`) or fail the run (`fail`). @default 'return' */
  onError?: 'return' | 'fail';
  /** Set for tools that run another agent as a child workflow. */
  agent?: string;
  /**
   * Its implementation's `describe` writes the text approvers read (it may look things up), instead of the
   * policy's default "prefix + tool + args".
   */
  describe?: boolean;
  /**
   * Its implementation's `precheck` looks at what a call depends on (an order's status, a balance) and returns it
   * as JSON. It runs when a gated call is shown (approvers see it) and again just before the approved call runs:
   * if the answer differs, or the precheck fails, the call waits for approvers again and they see what changed.
   */
  precheck?: boolean;
  /**
   * Run as a local activity, in the worker that runs the workflow task: no server round trip, one history event
   * (a marker) instead of three and no extra workflow task. For quick, idempotent tools only: a local activity
   * cannot heartbeat to the server (so `heartbeatTimeout` does not apply and a crashed worker's attempt is noticed
   * only when the workflow task times out), and its retries happen inside workflow tasks. Changing this on a tool
   * that paused runs have already called is a code change like any other: their histories record how the call ran
   * (see `LOCAL_TOOLS_PATCH`).
   * @default false
   */
  local?: boolean;
}

export const DEFAULT_TOOL_HEARTBEAT_TIMEOUT = '10s';

export function defineTool<P extends z.ZodObject>(spec: ToolSpec<P>): ToolSpec<P> {
  if (!TOOL_NAME.test(spec.name)) {
    throw new Error(`Tool name "${spec.name}" must be 1-64 letters, digits, '_' or '-' (the Chat Completions rule)`);
  }
  return spec;
}

/** A tool that hands a task to another agent, which runs as a child workflow under its own policy. */
export function defineAgentTool(options: { name: string; agent: string; description: string }): ToolSpec {
  return defineTool({
    name: options.name,
    description: options.description,
    agent: options.agent,
    parameters: z.object({ prompt: z.string().min(1).describe(`The task for the ${options.agent} agent`) }),
  });
}

/** The function definition sent to the model, derived from the zod schema (never written by hand). */
export function toFunctionDefinition(spec: ToolSpec) {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(spec.parameters) as Record<string, unknown>;
  return { type: 'function' as const, function: { name: spec.name, description: spec.description, parameters } };
}
