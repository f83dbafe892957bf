/**
 * How each kind of activity is scheduled, in one table, and the proxies built from it. A tool's own spec may
 * override its timeout, heartbeat and retry (see `toolOptions`).
 */
import type { ActivityOptions, Duration, LocalActivityOptions } from '@temporalio/common';
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { McpTool } from '../schemas/mcp-tool.js';
import { DEFAULT_TOOL_HEARTBEAT_TIMEOUT, type ToolSpec } from '../tools/define-tool.js';

export const ACTIVITY_OPTIONS = {
  /** Resolving the agent is local and quick; its result is recorded as a marker in history. */
  resolveAgent: { startToCloseTimeout: '10s', retry: { maximumAttempts: 3 } },
  /**
   * Model calls: transient API failures retry with backoff (a `retry-after` from the API overrides the interval); a
   * rejected request is non-retryable and fails the run. The activity heartbeats every 2s while the API answers, so
   * a crashed worker is noticed in seconds.
   */
  model: {
    startToCloseTimeout: '5m',
    heartbeatTimeout: '10s',
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 10 },
  },
  /** The summary written when a long run compacts its transcript: a model call, which heartbeats as `model` does. */
  summarize: { startToCloseTimeout: '5m', heartbeatTimeout: '10s', retry: { initialInterval: '1s', maximumAttempts: 10 } },
  /** Defaults for tools. */
  tool: { startToCloseTimeout: '2m', heartbeatTimeout: DEFAULT_TOOL_HEARTBEAT_TIMEOUT, retry: { maximumAttempts: 3 } },
  /** A tool's sentence for approvers: approvers must never wait long on it. */
  describe: { startToCloseTimeout: '30s', retry: { maximumAttempts: 3 } },
  /** Model hooks that need I/O (a moderation API, a summariser): a failing hook fails the run after its retries. */
  hook: { startToCloseTimeout: '2m', retry: { initialInterval: '1s', maximumAttempts: 5 } },
  /**
   * Listing an agent's MCP tools when a run starts: the worker may have to start a server (npx can take a while);
   * an unreachable server is retried with backoff, then fails the run with McpServerError.
   */
  listMcpTools: {
    startToCloseTimeout: '3m',
    heartbeatTimeout: '30s',
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 5 },
  },
  /**
   * A reviewer before humans (a rule, or a model call): a few quick tries, then the call goes to humans. A
   * reviewer's own `timeout` replaces the start-to-close timeout.
   */
  review: { startToCloseTimeout: '1m', retry: { initialInterval: '1s', maximumAttempts: 3 } },
  /** A tool's precheck, when its call is shown and again just before it runs: a failure sends the call back to approvers. */
  precheck: { startToCloseTimeout: '30s', retry: { initialInterval: '1s', maximumAttempts: 3 } },
  /**
   * Asking a sub-agent whether it sent a report (patch reportsConfirmed): a query, answered in milliseconds by a live
   * worker. A report that cannot be confirmed is ignored, as
   * a lost signal would be: the sub-agent's next report says what waits then.
   */
  confirmReport: { startToCloseTimeout: '10s', retry: { initialInterval: '200ms', maximumAttempts: 3 } },
  /** A delivery workflow asking the run that started it for the events it handed over: a query, as confirmReport. */
  confirmHandover: { startToCloseTimeout: '1m', retry: { initialInterval: '1s', maximumAttempts: 5 } },
  /** Notifications retry for a while, then give up: a webhook outage must never hold up a run. */
  notify: { startToCloseTimeout: '30s', scheduleToCloseTimeout: '10m', retry: { initialInterval: '2s', maximumAttempts: 6 } },
} satisfies Record<string, ActivityOptions>;

/** A tool call's options: the tool's spec over the defaults. Local activities have no heartbeats. */
export function toolOptions(spec: ToolSpec | undefined, local: boolean): ActivityOptions | LocalActivityOptions {
  const common = {
    startToCloseTimeout: spec?.timeout ?? ACTIVITY_OPTIONS.tool.startToCloseTimeout,
    retry: spec?.retry ?? ACTIVITY_OPTIONS.tool.retry,
  };
  return local ? common : { ...common, heartbeatTimeout: spec?.heartbeatTimeout ?? ACTIVITY_OPTIONS.tool.heartbeatTimeout };
}

/**
 * An MCP tool call's options: its server's timeout, heartbeats, and retries only for tools whose annotations say a
 * second call does no harm (read-only or idempotent); any other tool gets one attempt, and the model hears of a
 * failure.
 */
export function mcpToolOptions(tool: McpTool): ActivityOptions {
  const idempotent = tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true;
  return {
    // Checked as a duration when the agent was defined (schemas/mcp-tool.ts).
    startToCloseTimeout: (tool.timeout as Duration | undefined) ?? ACTIVITY_OPTIONS.tool.startToCloseTimeout,
    heartbeatTimeout: ACTIVITY_OPTIONS.tool.heartbeatTimeout,
    retry: idempotent ? ACTIVITY_OPTIONS.tool.retry : { maximumAttempts: 1 },
  };
}

/**
 * What the proxies below hold for every call. `executeWithOptions` deep-merges a call's options over them, so they
 * hold nothing a call could inherit unawares: they held the tools' options once, and every activity that never
 * heartbeats (a webhook, a summary, a review, a hook) was timed out by the tools' 10 s heartbeat timeout.
 */
const PROXY_BASE = { startToCloseTimeout: ACTIVITY_OPTIONS.tool.startToCloseTimeout };

export const { resolveAgent } = proxyLocalActivities<Activities>(ACTIVITY_OPTIONS.resolveAgent);
export const activities = proxyActivities<Activities>(PROXY_BASE);
export const localActivities = proxyLocalActivities<Activities>(PROXY_BASE);
