/**
 * The Temporal server settings we change from Temporal's defaults, in one list: the dev server gets them as
 * `--dynamic-config-value` flags (src/dev/dev-server.ts), docker-compose and the PostgreSQL cluster from
 * deploy/temporal-dynamic-config.yaml (a test keeps the file equal to this list), and the bench records them and
 * measures a server on Temporal's defaults beside ours (`npm run bench:throttles`, README "Server settings").
 */

export type DynamicConfigValue = string | number | boolean;

export interface ServerSetting {
  key: string;
  /** What we run with. */
  value: DynamicConfigValue;
  /** What the server (go.temporal.io/server v1.29.1, common/dynamicconfig/constants.go) runs with when unset. */
  temporalDefault: DynamicConfigValue;
}

/**
 * Each history shard's queue processors load their tasks at most MaxPollRPS times a second (a token bucket with a
 * burst as large). One workflow that runs step after step asks for a load per step, so after the burst every step
 * waits for a token: about 45 ms a step at 20. 1,000 loads a second per shard is more than our steps need
 * (`npm run bench:throttles`) and still bounds the reads each shard makes of its task table.
 */
const QUEUE_LOADS_PER_SECOND = 1000;

export const SERVER_SETTINGS: readonly ServerSetting[] = [
  // Eager activity execution: a workflow task that schedules an activity gets it back in its own completion, and the
  // worker starts it without a dispatch through matching (bench/RESULTS.md, experiment eager-activities-off).
  { key: 'system.enableActivityEagerExecution', value: true, temporalDefault: false },
  // Workflow and activity tasks go to matching through the transfer queue.
  { key: 'history.transferProcessorMaxPollRPS', value: QUEUE_LOADS_PER_SECOND, temporalDefault: 20 },
  // Timers (approval deadlines, retries' backoff, activity timeouts) fire from the timer queue.
  { key: 'history.timerProcessorMaxPollRPS', value: QUEUE_LOADS_PER_SECOND, temporalDefault: 20 },
  // Starts, closes and search-attribute upserts reach visibility (the inbox, `hitl list`) through the visibility queue.
  { key: 'history.visibilityProcessorMaxPollRPS', value: QUEUE_LOADS_PER_SECOND, temporalDefault: 20 },
  // List and count calls per second per frontend and namespace: the inbox and the API's list pages use them. The CLI's
  // dev server already runs with 100; a self-hosted server answers 10 and then ResourceExhausted.
  { key: 'frontend.namespaceRPS.visibility', value: 100, temporalDefault: 10 },
];

export const DEV_SERVER_DYNAMIC_CONFIG: Record<string, DynamicConfigValue> = Object.fromEntries(
  SERVER_SETTINGS.map((s) => [s.key, s.value]),
);

/** The same keys at Temporal's defaults: a server as a plain self-hosted install runs (the bench's baseline). */
export const TEMPORAL_DEFAULT_DYNAMIC_CONFIG: Record<string, DynamicConfigValue> = Object.fromEntries(
  SERVER_SETTINGS.map((s) => [s.key, s.temporalDefault]),
);
