/**
 * The API's `/metrics`, in Prometheus' text format, with prom-client (the Prometheus client for Node that the
 * Prometheus project lists; it also brings the process metrics: CPU, memory, event loop lag, GC). What it serves:
 * its own HTTP requests by route pattern (never by raw path: ids would make a series per run), and the approvals
 * pending across all runs, counted from visibility when scraped (cached briefly, so scrapes cannot load Temporal;
 * NaN while Temporal cannot be asked).
 * Per-run counts (requested, decided, timed out, time to decision) come from the worker's endpoint.
 */
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { METRICS } from '../contract/metric-names.js';

/** How long a counted pending total is served again before the next count. */
const PENDING_CACHE_MS = 10_000;

export class ApiMetrics {
  readonly registry = new Registry();
  readonly #requests = new Counter({
    name: METRICS.httpRequests,
    help: 'HTTP requests the API answered',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly #duration = new Histogram({
    name: METRICS.httpRequestSeconds,
    help: 'Seconds the API took to answer',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  #pending?: { at: number; value: Promise<number> };

  /** @param countPending counts the approvals waiting across all runs (src/client/pending-count.ts) */
  constructor(countPending?: () => Promise<number>) {
    collectDefaultMetrics({ register: this.registry, prefix: 'hitl_api_' });
    if (!countPending) return;
    const metrics = this;
    new Gauge({
      name: METRICS.approvalsPending,
      help: 'Approvals waiting for a decision across all runs (from visibility)',
      registers: [this.registry],
      async collect() {
        const now = Date.now();
        if (!metrics.#pending || now - metrics.#pending.at > PENDING_CACHE_MS) metrics.#pending = { at: now, value: countPending() };
        const current = metrics.#pending;
        try {
          this.set(await current.value);
        } catch {
          // Temporal unreachable: NaN (unknown), not a stale count nor a false 0 (/readyz says why); count again next scrape.
          this.set(Number.NaN);
          if (metrics.#pending === current) metrics.#pending = undefined;
        }
      },
    });
  }

  /** Counts and times every request, labelled by the route that answered it. */
  middleware(): MiddlewareHandler {
    return async (c, next) => {
      const end = this.#duration.startTimer();
      try {
        await next();
      } finally {
        const route = routePath(c) || 'unmatched';
        end({ method: c.req.method, route });
        this.#requests.inc({ method: c.req.method, route, status: String(c.res.status) });
      }
    };
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
