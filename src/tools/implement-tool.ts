/** The activity half of a tool: a function of validated arguments and a context the model never sees. */
import type { z } from 'zod';
import type { ToolSpec } from './define-tool.js';

export interface ToolContext {
  workflowId: string;
  toolCallId: string;
  /** `<workflowId>:<toolCallId>`: the same on every retry, so a side effect can be made exactly once. */
  idempotencyKey: string;
  /** 1 on the first attempt. */
  attempt: number;
  agent: string;
  /** The run's context data, passed at start. */
  context: Readonly<Record<string, unknown>>;
  /** Long tools call this at least every `heartbeatTimeout`; it is also how cancellation reaches them. */
  heartbeat(details?: unknown): void;
  /** Aborted when the run is cancelled or the attempt times out. */
  signal: AbortSignal;
}

export interface ToolImplementation<P extends z.ZodObject = z.ZodObject> {
  spec: ToolSpec<P>;
  /** Returns the tool result; strings go to the model as-is, anything else as JSON. */
  run(args: z.infer<P>, ctx: ToolContext): Promise<unknown> | unknown;
  /** For specs with `describe: true`: one sentence telling an approver what this call will do. */
  describe?(args: z.infer<P>, ctx: ToolContext): Promise<string> | string;
  /**
   * For specs with `precheck: true`: what the call depends on, as JSON (at most 8 KiB). Equal answers before the
   * approval and before the run mean the world is as the approvers saw it.
   */
  precheck?(args: z.infer<P>, ctx: ToolContext): Promise<unknown> | unknown;
}

export function implementTool<P extends z.ZodObject>(
  spec: ToolSpec<P>,
  run: ToolImplementation<P>['run'],
  describe?: ToolImplementation<P>['describe'],
  precheck?: ToolImplementation<P>['precheck'],
): ToolImplementation<P> {
  return { spec, run, ...(describe && { describe }), ...(precheck && { precheck }) };
}
