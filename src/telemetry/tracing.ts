/**
 * OpenTelemetry tracing, off unless the standard OTEL_* variables ask for it. When on, one trace runs from the
 * HTTP request through the client's call, the workflow (its spans cross the sandbox through a sink) and into the
 * model and tool activities, via `@temporalio/interceptors-opentelemetry`. When off, nothing is loaded (the SDK
 * parts live in tracing-provider.ts, imported only when tracing starts), no interceptor runs and the workflow
 * bundle holds no tracing code.
 */
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import type { MiddlewareHandler } from 'hono';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { EnvConfig } from '../config.js';
import type { ActiveTracing } from './tracing-provider.js';

export type { ActiveTracing };

let active: ActiveTracing | undefined;

/**
 * Tracing is on when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
 * or OTEL_TRACES_EXPORTER names an exporter (`otlp`, `console`), and OTEL_SDK_DISABLED is not true.
 */
export function tracingRequested(config: EnvConfig): boolean {
  if (config.OTEL_SDK_DISABLED || config.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(config.OTEL_TRACES_EXPORTER || config.OTEL_EXPORTER_OTLP_ENDPOINT || config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts tracing for this process if the environment asks for it (or a span processor is given: tests pass an
 * in-memory one). Registers the global tracer provider, context manager and W3C propagator.
 * @param serviceName the default `service.name`; OTEL_SERVICE_NAME overrides it.
 */
export async function startTracing(
  config: EnvConfig,
  serviceName: string,
  options: { spanProcessor?: SpanProcessor } = {},
): Promise<ActiveTracing | undefined> {
  if (active) return active;
  if (!options.spanProcessor && !tracingRequested(config)) return undefined;
  const { createTracing } = await import('./tracing-provider.js');
  active = createTracing({
    serviceName: config.OTEL_SERVICE_NAME ?? serviceName,
    exporter: config.OTEL_TRACES_EXPORTER === 'console' ? 'console' : 'otlp',
    ...(options.spanProcessor && { spanProcessor: options.spanProcessor }),
  });
  return active;
}

export async function stopTracing(): Promise<void> {
  const current = active;
  active = undefined;
  await current?.shutdown();
}

/** Client interceptors that start spans and carry their context to the workflow; none when tracing is off. */
export function tracingClientInterceptors(): WorkflowClientInterceptor[] {
  return active?.clientInterceptors ?? [];
}

/** Worker options for tracing; empty when tracing is off. */
export function tracingWorkerOptions(): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  return active?.workerOptions ?? {};
}

/** The HTTP server span of each request (the trace's root); undefined when tracing is off. */
export function tracingHttpMiddleware(): MiddlewareHandler | undefined {
  return active?.httpMiddleware;
}
