/** The activity half of a tool: a function of validated arguments and a context the model never sees. */
import type { z } from 'zod';
import type { AgentStore } from '../store/agent-store.js';
import type { ToolSpec } from './define-tool.js';

/**
 * @typeParam C the context's type, when the tool knows the agents that use it check their context with a schema of
 *   that shape (`contextSchema`): annotate the parameter, `(args, ctx: ToolContext<{tenant: string}>)`.
 */
export interface ToolContext<C extends object = Readonly<Record<string, unknown>>> {
  workflowId: string;
  toolCallId: string;
  /** `<workflowId>:<toolCallId>`: the same on every retry, so a side effect can be made exactly once. */
  idempotencyKey: string;
  /** 1 on the first attempt. */
  attempt: number;
  agent: string;
  /** The run's context, passed at start and checked against the agent's `contextSchema` (its defaults applied). */
  context: C;
  /**
   * The store across runs (LangGraph's `InjectedStore`): `get`, `list`, `put` and `delete` by namespace and key.
   * Each write is a Temporal update, durable once it returns; a retried attempt's writes are applied once.
   */
  store: AgentStore;
  /** Long tools call this at least every `heartbeatTimeout`; it is also how cancellation reaches them. */
  heartbeat(details?: unknown): void;
  /** Aborted when the run is cancelled or the attempt times out. */
  signal: AbortSignal;
}

export interface ToolImplementation<P extends z.ZodObject = z.ZodObject, C extends object = Readonly<Record<string, unknown>>> {
  spec: ToolSpec<P>;
  /** Returns the tool result; strings go to the model as-is, anything else as JSON. */
  run(args: z.infer<P>, ctx: ToolContext<C>): Promise<unknown> | unknown;
  /** For specs with `describe: true`: one sentence telling an approver what this call will do. */
  describe?(args: z.infer<P>, ctx: ToolContext<C>): Promise<string> | string;
  /**
   * For specs with `precheck: true`: what the call depends on, as JSON (at most 8 KiB). Equal answers before the
   * approval and before the run mean the world is as the approvers saw it.
   */
  precheck?(args: z.infer<P>, ctx: ToolContext<C>): Promise<unknown> | unknown;
}

export function implementTool<P extends z.ZodObject, C extends object = Readonly<Record<string, unknown>>>(
  spec: ToolSpec<P>,
  run: ToolImplementation<P, C>['run'],
  describe?: ToolImplementation<P, C>['describe'],
  precheck?: ToolImplementation<P, C>['precheck'],
): ToolImplementation<P, C> {
  return { spec, run, ...(describe && { describe }), ...(precheck && { precheck }) };
}
