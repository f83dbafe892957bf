/**
 * The OpenTelemetry SDK parts of tracing, loaded only when tracing starts (tracing.ts). The interceptors package
 * is built on OpenTelemetry JS 1.x, so the SDK parts here are its 1.x line too: its workflow spans reach our span
 * processor as 1.x spans.
 */
import { httpInstrumentationMiddleware } from '@hono/otel';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, ConsoleSpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import { TRACING_WORKFLOW_INTERCEPTOR_MODULES } from '../workflow-bundle.js';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import type { MiddlewareHandler } from 'hono';

/** What a process wires in while tracing is on. */
export interface ActiveTracing {
  clientInterceptors: WorkflowClientInterceptor[];
  /** Activity interceptors, the workflow interceptor module and the sink that exports workflow spans. */
  workerOptions: Pick<WorkerOptions, 'interceptors' | 'sinks'>;
  httpMiddleware: MiddlewareHandler;
  /** Flushes what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

export function createTracing(options: {
  serviceName: string;
  exporter: 'otlp' | 'console';
  spanProcessor?: SpanProcessor;
}): ActiveTracing {
  const resource = new Resource({ 'service.name': options.serviceName });
  // The exporter reads the rest of OTEL_EXPORTER_OTLP_* (headers, timeouts) itself.
  const spanProcessor =
    options.spanProcessor ?? new BatchSpanProcessor(options.exporter === 'console' ? new ConsoleSpanExporter() : new OTLPTraceExporter());
  const provider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register({ contextManager: new AsyncLocalStorageContextManager().enable() });
  return {
    clientInterceptors: [new OpenTelemetryWorkflowClientInterceptor()],
    workerOptions: {
      interceptors: {
        workflowModules: TRACING_WORKFLOW_INTERCEPTOR_MODULES,
        activity: [
          (ctx) => ({
            inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
            outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
          }),
        ],
      },
      sinks: { exporter: makeWorkflowExporter(spanProcessor, resource) },
    },
    httpMiddleware: httpInstrumentationMiddleware({ serviceName: options.serviceName, captureActiveRequests: false }),
    shutdown: () => provider.shutdown(),
  };
}
