/**
 * The workflow side of tracing, bundled into the workflow code only when tracing is on (src/telemetry/): spans
 * for the run, its handlers and the activities it schedules, made in the sandbox with the workflow's clock and
 * handed out through a sink, which the SDK does not call during replay. It adds no commands, and every recorded
 * history replays with it (test/replay.test.ts). It does add awaits between a handler or an activity and the code
 * that awaits it, so two coroutines woken in one workflow task can push their commands in another order with it than
 * without: a history recorded without it, where a watcher's stream poll landed in the same task as the run's final
 * step, failed to replay with it (the poll's answer came before the run's search-attribute upsert). Turning tracing
 * on or off for open runs is therefore a change of workflow code (README, "Production", Traces).
 */
export { interceptors } from '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors.js';
