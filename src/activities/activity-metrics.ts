/**
 * What the activities count, through the SDK's activity metric meter: it adds the namespace, task queue and
 * activity type, and the worker's Prometheus endpoint serves it (src/telemetry/worker-runtime.ts). Without an
 * endpoint the SDK drops the values.
 */
import type { Context } from '@temporalio/activity';
import { METRICS } from '../contract/metric-names.js';
import type { Usage } from '../schemas/run-state.js';

/** Tokens a model call used, by kind (prompt, completion) and model. */
export function countModelTokens(activity: Context, model: string, usage: Usage): void {
  const tokens = activity.metricMeter.createCounter(METRICS.modelTokens, 'tokens', 'Tokens the model used');
  if (usage.promptTokens > 0) tokens.add(usage.promptTokens, { kind: 'prompt', model });
  if (usage.completionTokens > 0) tokens.add(usage.completionTokens, { kind: 'completion', model });
}

/** A tool attempt that threw: `refused` (ToolRefusedError, not retried) or `error` (retried by its policy). */
export function countToolFailure(activity: Context, tool: string, kind: 'refused' | 'error'): void {
  activity.metricMeter.createCounter(METRICS.toolFailures, 'failures', 'Tool attempts that failed').add(1, { tool, kind });
}
