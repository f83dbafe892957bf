/**
 * The SDK runtime of a process that runs a worker: its log level, and its Prometheus endpoint when
 * HITL_WORKER_METRICS_ADDRESS is set. The endpoint serves the SDK's own metrics (`temporal_*`: task latencies,
 * slots, polls, cache) and ours (`hitl_*`, src/contract/metric-names.ts), which the workflow and the activities
 * emit through the SDK's metric meters. It must be installed before the process's first connection.
 */
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { EnvConfig } from '../config.js';
import { HISTOGRAM_BUCKETS } from '../contract/metric-names.js';

export function installWorkerRuntime(config: EnvConfig, logLevel: LogLevel = 'INFO'): void {
  const bindAddress = config.HITL_WORKER_METRICS_ADDRESS;
  Runtime.install({
    logger: new DefaultLogger(logLevel),
    ...(bindAddress && {
      telemetryOptions: { metrics: { prometheus: { bindAddress, histogramBucketOverrides: { ...HISTOGRAM_BUCKETS } } } },
    }),
  });
}
