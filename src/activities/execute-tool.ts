/**
 * Runs one tool call. Arguments are parsed and validated here too (never run a tool on unvalidated input); such
 * problems go back to the model as the tool result. A tool's own exception becomes an activity failure so the
 * tool's retry policy applies; the workflow tells the model once the retries run out.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { truncateBytes } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import { StoreRefusedError, ToolRefusedError } from '../errors.js';
import { AgentStore } from '../store/agent-store.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import { NON_ERROR_NAME } from '../schemas/tool-errors.js';
import { durationToMs } from '../schemas/duration.js';
import { DEFAULT_TOOL_HEARTBEAT_TIMEOUT } from '../tools/define-tool.js';
import type { ToolContext } from '../tools/implement-tool.js';
import { toolSpecs } from '../tools/registry.js';
import { parseToolArguments, type ArgumentsProblem } from '../tools/tool-arguments.js';
import type { ActivityDeps } from './activity-deps.js';
import { countToolFailure } from './activity-metrics.js';
import { keepHeartbeating } from './keep-heartbeating.js';
import { wakeRunAfter } from './listings-wake.js';

export interface ExecuteToolInput {
  agent: string;
  /** The agent's tools: a call to any other name is an unknown tool. */
  available: string[];
  toolCallId: string;
  name: string;
  /** The model's JSON text, or arguments an approver edited. */
  args: string | ToolArgs;
  context?: Record<string, unknown>;
  /**
   * Set when the run holds back its listings while this decided call's tool starts: if the tool still runs after this
   * long, it wakes the run (listings-wake.ts).
   */
  listingsDueInMs?: number;
}

export interface ExecuteToolResult {
  content: string;
  /** Set when the call never ran because its name or arguments were wrong. */
  problem?: ArgumentsProblem;
}

export function createExecuteTool({ tools }: ActivityDeps) {
  return {
    /** The tool's own sentence for approvers; undefined when it has none. */
    async describeCall(input: {
      agent: string;
      name: string;
      args: ToolArgs;
      toolCallId: string;
      context?: Record<string, unknown>;
    }): Promise<string | undefined> {
      const implementation = tools[input.name];
      if (!implementation?.describe) return undefined;
      const text = await implementation.describe(implementation.spec.parameters.parse(input.args), toolContext(Context.current(), input));
      // Bounded as a tool's result is, for history; the run cuts it, with its prefix, to what approvers read, and its
      // marker then counts what was cut of the tool's text (one cut here too would leave it counting only the second).
      return typeof text === 'string' ? truncateBytes(text, LIMITS.toolResultBytes) : undefined;
    },

    /**
     * The tool's view of what a call depends on (its `precheck`), as JSON; undefined when it has none. Thrown
     * errors fail the activity (after its retries the call goes back to approvers).
     */
    async precheckCall(input: {
      agent: string;
      name: string;
      args: ToolArgs;
      toolCallId: string;
      context?: Record<string, unknown>;
    }): Promise<unknown> {
      const implementation = tools[input.name];
      if (!implementation?.precheck) return undefined;
      const world = await implementation.precheck(implementation.spec.parameters.parse(input.args), toolContext(Context.current(), input));
      // Only JSON crosses into the run: what is compared is what approvers are shown.
      return world === undefined ? null : JSON.parse(JSON.stringify(world));
    },

    async executeTool(input: ExecuteToolInput): Promise<ExecuteToolResult> {
      const parsed = parseToolArguments(input.name, input.args, toolSpecs, input.available);
      if (!parsed.ok) return { content: parsed.message, problem: parsed.problem };
      const implementation = tools[input.name];
      if (!implementation) {
        return { content: `Error: ${input.name} has no implementation on this worker.`, problem: 'unknown_tool' };
      }

      const activity = Context.current();
      const heartbeatTimeout = implementation.spec.heartbeatTimeout ?? DEFAULT_TOOL_HEARTBEAT_TIMEOUT;
      // A local activity has no heartbeats to send (and no heartbeat timeout to keep alive).
      const stopHeartbeats = activity.info.isLocal
        ? () => {}
        : keepHeartbeating(activity, Math.max(1000, durationToMs(heartbeatTimeout) / 3));
      const stopWake = wakeRunAfter(activity, input.listingsDueInMs);
      try {
        const result = await implementation.run(parsed.args, toolContext(activity, input));
        // Tools return what they like; the run takes a bounded text (the model reads it, history keeps it).
        return {
          content: truncateBytes(typeof result === 'string' ? result : (JSON.stringify(result) ?? String(result)), LIMITS.toolResultBytes),
        };
      } catch (err) {
        if (!activity.cancellationSignal.aborted)
          countToolFailure(activity, input.name, err instanceof ToolRefusedError ? 'refused' : 'error');
        if (err instanceof ToolRefusedError || err instanceof StoreRefusedError) throw err.toFailure();
        if (err instanceof ApplicationFailure || activity.cancellationSignal.aborted) throw err;
        throw toolFailure(err);
      } finally {
        stopHeartbeats();
        stopWake();
      }
    },
  };
}

/**
 * A tool's exception as a retryable failure that names it (`details[0]: {name, code?}`), so an `onError` map can
 * pick the model's message by the error's name or code. Tools may throw anything: a value that is not an Error
 * (a string, an object, null) is named `NonError` and described as well as it can be.
 */
export function toolFailure(thrown: unknown): ApplicationFailure {
  if (thrown instanceof Error) {
    const code = codeOf(thrown);
    return ApplicationFailure.create({
      type: 'ToolError',
      message: thrown.message || thrown.name,
      details: [{ name: thrown.name, ...(code !== undefined && { code }) }],
      cause: thrown,
    });
  }
  const code = codeOf(thrown);
  return ApplicationFailure.create({
    type: 'ToolError',
    message: `the tool threw a value that is not an Error: ${describeValue(thrown)}`,
    details: [{ name: NON_ERROR_NAME, ...(code !== undefined && { code }) }],
  });
}

function codeOf(value: unknown): string | undefined {
  const code = typeof value === 'object' && value !== null ? (value as { code?: unknown }).code : undefined;
  return typeof code === 'string' || typeof code === 'number' ? String(code).slice(0, 200) : undefined;
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return truncateBytes(value, 2000);
  for (const describe of [() => JSON.stringify(value) ?? String(value), () => String(value)]) {
    try {
      return truncateBytes(describe(), 2000);
    } catch {
      // Circular, a BigInt, a toString that throws: try the next way.
    }
  }
  return `a value of type ${typeof value}`;
}

/** What an implementation may know about the call: never the model's view, always a stable idempotency key. */
function toolContext(activity: Context, input: { agent: string; toolCallId: string; context?: Record<string, unknown> }): ToolContext {
  const workflowId = activity.info.workflowExecution?.workflowId ?? activity.info.activityId;
  const idempotencyKey = `${workflowId}:${input.toolCallId}`;
  let store: AgentStore | undefined;
  return {
    workflowId,
    toolCallId: input.toolCallId,
    idempotencyKey,
    attempt: activity.info.attempt,
    agent: input.agent,
    context: input.context ?? {},
    // Built on first use: most tools never touch the store.
    get store() {
      store ??= new AgentStore(activity.client, activity.info.taskQueue, {
        writtenBy: `${workflowId}:${input.toolCallId}`,
        idempotencyKey,
      });
      return store;
    },
    heartbeat: (details) => {
      if (!activity.info.isLocal) activity.heartbeat(details);
    },
    signal: activity.cancellationSignal,
  };
}
