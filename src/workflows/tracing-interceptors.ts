/**
 * The workflow side of tracing, bundled into the workflow code only when tracing is on (src/telemetry/): spans
 * for the run, its handlers and the activities it schedules, made in the sandbox with the workflow's clock and
 * handed out through a sink, which the SDK does not call during replay. It adds no commands, so histories recorded
 * with or without it replay either way (test/replay.test.ts).
 */
export { interceptors } from '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors.js';
