/**
 * For orchestrators and scrapers, outside /api and without a token: `/healthz` (the process answers), `/readyz`
 * (Temporal answers for our namespace, within a bounded wait) and `/metrics` (Prometheus, api-metrics.ts).
 */
import { grpcCodes } from '../connection/connection-diagnosis.js';
import { grpcStatusName } from '../connection/grpc-status.js';
import { apiLog, type ApiApp, type ApiOptions } from './api-env.js';

/** Probed every few seconds: not worth a log line each. */
export const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** How long `/readyz` waits for Temporal before it answers 503. */
export const READY_TIMEOUT_MS = 3000;

export function opsRoutes(app: ApiApp, options: ApiOptions): void {
  app.get('/healthz', (c) => c.json({ ok: true }));

  const log = apiLog(options);
  let lastFailure: string | undefined;
  app.get('/readyz', async (c) => {
    const { connection } = options.hitl.temporal;
    try {
      await connection.withDeadline(Date.now() + READY_TIMEOUT_MS, () =>
        connection.workflowService.describeNamespace({ namespace: options.namespace }),
      );
      lastFailure = undefined;
      return c.json({ ok: true, temporal: 'reachable' });
    } catch (err) {
      // Anyone may ask, without a token: they get the gRPC status, and the log gets the message (which may name
      // internal addresses), once for each new one, not once per probe.
      const reason = err instanceof Error ? err.message : String(err);
      if (reason !== lastFailure) log(`[api] /readyz: Temporal is not ready: ${JSON.stringify(reason)}`);
      lastFailure = reason;
      const [code] = grpcCodes(err);
      const name = code === undefined ? undefined : grpcStatusName(code);
      const why = code === undefined ? 'no answer' : `gRPC status ${code}${name ? ` (${name})` : ''}`;
      return c.json({ ok: false, temporal: `not ready within ${READY_TIMEOUT_MS / 1000}s: ${why}` }, 503);
    }
  });

  const { metrics } = options;
  if (metrics) app.get('/metrics', async (c) => c.body(await metrics.render(), 200, { 'content-type': metrics.contentType }));
}
