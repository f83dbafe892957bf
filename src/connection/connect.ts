/**
 * Connecting with a bounded wait. A server that cannot be reached yet (still starting, a network blip) is tried
 * again until the wait runs out; a server that refuses our TLS or credentials fails at once, since waiting cannot
 * fix a setting. Either way the error names the setting to fix (connection-diagnosis.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { TemporalConnectionError } from './connection-errors.js';
import { diagnoseConnectionFailure, diagnoseTransport, grpcCodes, namespaceNotFound } from './connection-diagnosis.js';
import { GRPC_STATUS } from './grpc-status.js';
import { clientConnectionOptions, type TemporalTarget } from './temporal-target.js';

export interface ConnectWait {
  /** How long to keep trying while the server cannot be reached (HITL_CONNECT_TIMEOUT_MS). */
  waitMs: number;
  /** Told of each failed attempt that will be tried again. */
  onRetry?: (error: TemporalConnectionError) => void;
}

/** An attempt still pending this long gets a diagnosis of its own, which may end it early. */
const DIAGNOSE_AFTER_MS = 1500;

/** A client's connection (CLI, API, scripts); the worker's is in connect-worker.ts, which loads the worker SDK. */
export function connectClient(target: TemporalTarget, wait: ConnectWait): Promise<Connection> {
  return connectWithin(target, wait, (remainingMs) =>
    // The client waits for its channel up to connectTimeout (10 s by default) however long we may wait.
    Connection.connect({ ...clientConnectionOptions(target), connectTimeout: Math.max(1000, Math.min(remainingMs, 10_000)) }),
  );
}

type Outcome<C> = { connection: C } | { error: unknown } | { failure: TemporalConnectionError };

/** What connectWithin needs of a connection, the client's and the worker's alike. */
interface AnyConnection {
  close(): Promise<void>;
  workflowService: { describeNamespace(request: { namespace: string }): Promise<unknown> };
  withDeadline<R>(deadline: number, fn: () => Promise<R>): Promise<R>;
}

/** How long the namespace may take to be described; past it the check is left to the first call that needs it. */
const NAMESPACE_CHECK_MS = 5000;

export async function connectWithin<C extends AnyConnection>(
  target: TemporalTarget,
  wait: ConnectWait,
  attempt: (remainingMs: number) => Promise<C>,
): Promise<C> {
  const deadline = Date.now() + wait.waitMs;
  for (let tries = 1; ; tries++) {
    const remaining = Math.max(1000, deadline - Date.now());
    const outcome = await attemptWithDiagnosis(target, attempt(remaining), remaining);
    if ('connection' in outcome) return checkNamespace(target, outcome.connection);
    const failure = 'failure' in outcome ? outcome.failure : await diagnoseConnectionFailure(target, outcome.error);
    const left = deadline - Date.now();
    if (failure.reason !== 'unreachable' || left <= 0) throw withWait(failure, wait.waitMs, tries);
    wait.onRetry?.(failure);
    await sleep(Math.min(500 * tries, 5000, left));
  }
}

/**
 * The attempt, raced against our own diagnosis once it has taken DIAGNOSE_AFTER_MS and against the time left. An
 * attempt that loses the race and connects after all has its connection closed.
 */
async function attemptWithDiagnosis<C extends AnyConnection>(
  target: TemporalTarget,
  pending: Promise<C>,
  remainingMs: number,
): Promise<Outcome<C>> {
  // Ends the timers and any probe still running once the race is decided, so nothing holds the process open.
  const timers = new AbortController();
  const never = new Promise<never>(() => {});
  let settled = false;
  const result = await Promise.race<Outcome<C>>([
    pending.then(
      (connection) => ({ connection }),
      (error: unknown) => ({ error }),
    ),
    sleep(DIAGNOSE_AFTER_MS, undefined, { signal: timers.signal })
      .then(() => diagnoseTransport(target, timers.signal))
      .then(
        (failure) => (failure && !settled ? { failure } : never),
        () => never,
      ),
    sleep(remainingMs, undefined, { signal: timers.signal }).then(
      () => ({ error: new Error(`no answer within ${Math.round(remainingMs / 1000)}s`) }),
      () => never,
    ),
  ]);
  settled = true;
  timers.abort();
  if (!('connection' in result)) pending.then((c) => c.close()).catch(() => {});
  return result;
}

/**
 * A connection is made without naming the namespace, and a namespace that does not exist surfaced only at the first
 * call, as the SDK's "5 NOT_FOUND: Namespace nope is not found.": ask once, and say which setting to fix. Any other
 * answer (no permission to describe it, a slow server) is left to the calls that follow.
 */
async function checkNamespace<C extends AnyConnection>(target: TemporalTarget, connection: C): Promise<C> {
  const error = await connection
    .withDeadline(Date.now() + NAMESPACE_CHECK_MS, () => connection.workflowService.describeNamespace({ namespace: target.namespace }))
    .then(
      () => undefined,
      (err: unknown) => err,
    );
  if (error === undefined || !grpcCodes(error).has(GRPC_STATUS.NOT_FOUND)) return connection;
  await connection.close().catch(() => {});
  throw namespaceNotFound(target, error);
}

function withWait(failure: TemporalConnectionError, waitMs: number, tries: number): TemporalConnectionError {
  if (failure.reason !== 'unreachable') return failure;
  const message = `${failure.message} Gave up after ${Math.round(waitMs / 1000)}s (${tries} attempt${tries === 1 ? '' : 's'}; HITL_CONNECT_TIMEOUT_MS sets the wait).`;
  return new TemporalConnectionError(failure.reason, message, failure.settings, { cause: failure.cause });
}
