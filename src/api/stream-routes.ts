/**
 * `GET /api/runs/:id/events`: a run as Server-Sent Events, from its Workflow Stream. Each item is one SSE event
 * whose id is its stream offset: `events` (a RunEvent) or `tokens` (a TokenEvent, model text as it is written);
 * `end` when the run has closed, `error` if following it failed. A client that reconnects with `Last-Event-ID`
 * (EventSource does by itself) gets exactly what came after that id, any id it was given (the end the client tells
 * of a run Temporal ended included). It needs a bearer token like the rest: a browser reads it with fetch
 * (EventSource cannot send the header), as the inbox does.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceError } from '@temporalio/client';
import { z } from 'zod';
import { streamSSE } from 'hono/streaming';
import { HTTPException } from 'hono/http-exception';
import { streamEnd } from '../client/run-subscription.js';
import { refusePastEnd } from '../client/ended-run.js';
import { HitlError } from '../errors.js';
import type { RunStreamItem } from '../schemas/run-event.js';
import type { ApiApp, ApiOptions } from './api-env.js';
import { errorResponse, visibleMessage } from './api-errors.js';
import { DecimalQuery, ErrorBody, IdParam } from './http-schemas.js';
import { RunStreamHub } from './run-stream-hub.js';

/** Open streams per approver: each holds a connection, and the first for a run a subscription. @default 16 */
const MAX_STREAMS_PER_APPROVER = 16;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;
/** What EventSource waits before it reconnects. */
const RETRY_MS = 2000;
/** Times following a run starts again, from where it was, after Temporal failed a read of it (see `followAgain`). */
const FOLLOW_RETRIES = 3;

export const StreamQuery = z.strictObject({
  /** The first offset to send when there is no `Last-Event-ID` (as the events' ids carry it). @default 0: all the run's stream still keeps */
  from: DecimalQuery.optional(),
});

export function streamRoutes(app: ApiApp, options: ApiOptions): void {
  const hub = new RunStreamHub(options.hitl.temporal);
  const open = new Map<string, number>();

  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/api/runs/{id}/events',
    summary: "A run's events and model text as Server-Sent Events, resumable with Last-Event-ID (the stream offset)",
    request: {
      params: IdParam,
      query: StreamQuery,
      headers: z.object({ 'last-event-id': z.string().optional().describe('The id of the last event received: resume after it') }),
    },
    responses: {
      200: {
        description:
          'text/event-stream: `events` (a run event) and `tokens` (model text) with the stream offset as id; `end` when the run has closed',
        content: { 'text/event-stream': { schema: z.string() } },
      },
      400: { description: 'Invalid offset', content: { 'application/json': { schema: ErrorBody } } },
      401: { description: 'Missing or unknown token', content: { 'application/json': { schema: ErrorBody } } },
      404: { description: 'No such run, or not an agent run', content: { 'application/json': { schema: ErrorBody } } },
      409: {
        description: 'The run is stuck: it cannot move, so following it would only wait',
        content: { 'application/json': { schema: ErrorBody } },
      },
      429: { description: 'Too many open streams', content: { 'application/json': { schema: ErrorBody } } },
    },
  });

  app.get('/api/runs/:id/events', async (c) => {
    const params = IdParam.safeParse({ id: c.req.param('id') });
    const query = StreamQuery.safeParse(c.req.query());
    // An empty Last-Event-ID is a client that has seen no id yet (the SSE spec's empty last event ID): start as asked.
    const lastId = c.req.header('last-event-id') || undefined;
    const resumed = lastId === undefined ? undefined : DecimalQuery.safeParse(lastId);
    // `?from=1&from=abc` would be read as its first: refused, as every route refuses a key given twice.
    const repeated = Object.values(c.req.queries()).some((values) => values.length > 1);
    if (!params.success || !query.success || resumed?.success === false || repeated) {
      throw new HTTPException(400, {
        message: 'Expected a run id, an optional `from` offset (once) and an optional numeric Last-Event-ID.',
      });
    }
    const workflowId = params.data.id;
    const from = resumed?.success ? resumed.data + 1 : (query.data.from ?? 0);
    // Checked before the stream starts, so a missing run, another workflow, a stuck run or an offset from elsewhere
    // get their status. Past the run's own end, a closed run may have one more id to resume after (refusePastEnd).
    const end = await streamEnd(options.hitl.temporal, workflowId);
    if (from > end) await refusePastEnd(options.hitl.temporal, workflowId, from, end);

    // HEAD runs this handler as a GET would, and the body is never read: a stream opened for it would hold its slot
    // and the run's subscription until the run ends. It gets a GET's headers and no stream.
    if (c.req.method === 'HEAD') return c.body(null, 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    const approver = c.get('identity').approver;
    if ((open.get(approver) ?? 0) >= MAX_STREAMS_PER_APPROVER) {
      return errorResponse(c, 429, 'too_many_streams', `At most ${MAX_STREAMS_PER_APPROVER} open event streams per approver.`);
    }
    open.set(approver, (open.get(approver) ?? 0) + 1);
    c.header('cache-control', 'no-store');
    c.header('x-accel-buffering', 'no');
    return streamSSE(c, async (sse) => {
      const abort = new AbortController();
      sse.onAbort(() => abort.abort());
      const keepalive = setInterval(() => void sse.write(': keepalive\n\n').catch(() => abort.abort()), KEEPALIVE_MS);
      try {
        await sse.writeSSE({ event: 'open', data: JSON.stringify({ workflowId, from }), retry: RETRY_MS });
        let next = from;
        for (let attempt = 0; ; attempt++) {
          try {
            for await (const item of hub.follow(workflowId, next, abort.signal)) {
              await sse.writeSSE(toMessage(item));
              next = item.offset + 1;
            }
            break;
          } catch (err) {
            if (abort.signal.aborted || !followAgain(err) || attempt >= FOLLOW_RETRIES) throw err;
            await sleep(200 * (attempt + 1));
          }
        }
        if (!abort.signal.aborted) await sse.writeSSE({ event: 'end', data: '{}' });
      } catch (err) {
        if (!abort.signal.aborted) await sse.writeSSE({ event: 'error', data: JSON.stringify(errorBody(err)) }).catch(() => {});
      } finally {
        clearInterval(keepalive);
        const left = (open.get(approver) ?? 1) - 1;
        if (left > 0) open.set(approver, left);
        else open.delete(approver);
      }
    });
  });
}

function toMessage(item: RunStreamItem) {
  return { id: String(item.offset), event: item.topic, data: JSON.stringify(item.topic === 'events' ? item.event : item.token) };
}

/**
 * A read Temporal failed without saying the run is gone: a query that reached the worker as it let the run go, just
 * after the run closed, fails so ("Failed to query Workflow"), and the same read a moment later is answered. Our own
 * errors (no such run, an offset from elsewhere, a watcher too slow) are final.
 */
function followAgain(err: unknown): boolean {
  return err instanceof ServiceError && !(err instanceof HitlError);
}

function errorBody(err: unknown) {
  // Shown as errorResponse shows any message: what it quotes from outside with its hidden characters as escapes.
  if (err instanceof HitlError) return { error: { code: err.code, message: visibleMessage(err.message) } };
  console.error('[api] following a run failed', err instanceof Error ? err.message : err);
  return { error: { code: 'internal', message: 'Following the run failed; reconnect to resume.' } };
}
