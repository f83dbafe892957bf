/**
 * For orchestrators and scrapers, outside /api and without a token: `/healthz` (the process answers), `/readyz`
 * (Temporal answers for our namespace, within a bounded wait) and `/metrics` (Prometheus, api-metrics.ts).
 */
import type { ApiApp, ApiOptions } from './api-env.js';

/** Probed every few seconds: not worth a log line each. */
export const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** How long `/readyz` waits for Temporal before it answers 503. */
export const READY_TIMEOUT_MS = 3000;

export function opsRoutes(app: ApiApp, options: ApiOptions): void {
  app.get('/healthz', (c) => c.json({ ok: true }));

  app.get('/readyz', async (c) => {
    const { connection } = options.hitl.temporal;
    try {
      await connection.withDeadline(Date.now() + READY_TIMEOUT_MS, () =>
        connection.workflowService.describeNamespace({ namespace: options.namespace }),
      );
      return c.json({ ok: true, temporal: 'reachable' });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      return c.json({ ok: false, temporal: `not ready within ${READY_TIMEOUT_MS / 1000}s: ${reason}` }, 503);
    }
  });

  const { metrics } = options;
  if (metrics) app.get('/metrics', async (c) => c.body(await metrics.render(), 200, { 'content-type': metrics.contentType }));
}
