/** Every error leaves the API as `{error: {code, message}}` with a fitting status, never with a stack trace. */
import type { Context } from 'hono';
import { grpcCodes } from '../connection/connection-diagnosis.js';
import { GRPC_STATUS } from '../connection/grpc-status.js';
import { codePointEscape, revealHidden } from '../contract/hidden-characters.js';
import type { RefusalCode } from '../contract/refusal-codes.js';
import { HTTPException } from 'hono/http-exception';
import {
  ApprovalNotFoundError,
  DecisionRefusedError,
  InvalidMessageError,
  InvalidRunInputError,
  MessageQueueFullError,
  RunBusyError,
  RunNotFoundError,
  SessionClosedError,
  UnknownAgentError,
} from '../errors.js';
import { ENCRYPTED_ENCODING } from '../codec/aes-gcm-codec.js';
import { NotAnAgentRunError, NotRequesterError, RunClosedError, RunStuckError, StreamOffsetError } from '../client/run-errors.js';

type Status = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503;

const REFUSAL_STATUS: Partial<Record<RefusalCode, Status>> = {
  already_decided: 409,
  already_approved: 409,
  not_ready: 409,
  args_hash_mismatch: 409,
  tool_mismatch: 409,
  nothing_pending: 409,
  run_closed: 409,
  run_stuck: 409,
  busy: 503,
  too_large: 413,
  internal: 500,
  approver_required: 403,
  approver_not_allowed: 403,
  four_eyes: 403,
  token_refused: 403,
  tokens_unchecked: 403,
  unknown_call: 404,
};

/** gRPC's UNAVAILABLE and DEADLINE_EXCEEDED: the client gave up reaching Temporal (after its own retries). */
const GRPC_UNREACHABLE: number[] = [GRPC_STATUS.UNAVAILABLE, GRPC_STATUS.DEADLINE_EXCEEDED];

/**
 * What `err`, or an error it wraps, says about an encrypted payload that could not be read, here (the SDK's "Unknown
 * encoding: binary/encrypted" without keys, the codec's "Cannot decrypt a payload" with others) or by a worker (a
 * query's input it could not decrypt): a key setting to fix, not a fault to retry.
 */
function undecodablePayloadMessage(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const at = e.message.indexOf('Cannot decrypt a payload');
    // A worker's refusal of a query's input it could not decrypt says "could not be decoded", with the codec's words.
    if (at !== -1)
      return e.message.includes('could not be decoded')
        ? `A worker could not decrypt what this API sent: ${e.message}`
        : e.message.slice(at);
    if (e.message.includes(`Unknown encoding: ${ENCRYPTED_ENCODING}`))
      return `This run's payloads are encrypted, and this API holds no key for them.`;
  }
  return undefined;
}

/** Whether `err`, or an error it wraps, says Temporal could not be reached. */
function temporalUnreachable(err: unknown): boolean {
  const codes = grpcCodes(err);
  return GRPC_UNREACHABLE.some((code) => codes.has(code));
}

/**
 * A message often quotes what the caller sent (a path, an id, a header), and is read as it is: in a terminal after
 * curl, in a log, in a client's own error text. Characters that hide or rewrite text (a bidi override, a terminal's
 * escape) show as their escapes, as on every screen of ours (src/contract/hidden-characters.js). Line breaks stay: our
 * messages are written in lines (a list of what is wrong with a body).
 */
const keepLineBreaks = (c: string) => (c === '\n' ? c : codePointEscape(c));

/** A message as the API sends it, in a body or an event stream's error (below). */
export const visibleMessage = (message: string) => revealHidden(message, keepLineBreaks);

export function errorResponse(c: Context, status: Status, code: string, message: string) {
  return c.json({ error: { code, message: visibleMessage(message) } }, status);
}

export function handleApiError(err: unknown, c: Context) {
  if (err instanceof DecisionRefusedError) return errorResponse(c, REFUSAL_STATUS[err.code] ?? 400, err.code, err.message);
  if (err instanceof ApprovalNotFoundError || err instanceof RunNotFoundError || err instanceof NotAnAgentRunError)
    return errorResponse(c, 404, err.code, err.message);
  if (err instanceof SessionClosedError || err instanceof RunStuckError || err instanceof RunClosedError)
    return errorResponse(c, 409, err.code, err.message);
  if (err instanceof NotRequesterError) return errorResponse(c, 403, err.code, err.message);
  if (err instanceof MessageQueueFullError) return errorResponse(c, 429, err.code, err.message);
  if (err instanceof RunBusyError) return errorResponse(c, 503, err.code, err.message);
  if (
    err instanceof UnknownAgentError ||
    err instanceof StreamOffsetError ||
    err instanceof InvalidRunInputError ||
    err instanceof InvalidMessageError
  )
    return errorResponse(c, 400, err.code, err.message);
  if (err instanceof HTTPException) {
    const status = err.status as Status;
    const code =
      status === 401
        ? 'unauthorized'
        : status === 413
          ? 'body_too_large'
          : status === 429
            ? 'rate_limited'
            : status === 415
              ? 'unsupported_media_type'
              : 'invalid_request';
    return errorResponse(c, status, code, err.message || 'Request refused.');
  }
  // Temporal away (restarting, a network cut) is not our bug: say so, with when to try again, as /readyz does.
  if (temporalUnreachable(err)) {
    c.header('Retry-After', '5');
    return errorResponse(
      c,
      503,
      'temporal_unavailable',
      'Temporal cannot be reached right now; try again shortly. A decision that reached it before this is never applied twice: sent again, it is refused as already decided.',
    );
  }
  const undecodable = undecodablePayloadMessage(err);
  if (undecodable !== undefined) {
    console.error('[api] encrypted payloads could not be read:', undecodable);
    return errorResponse(
      c,
      500,
      'undecodable_payload',
      `${undecodable} The API and every worker need the same HITL_ENCRYPTION_KEYS, and HITL_ENCRYPTION_KEY_ID may name only a key every worker holds (README, "Encryption"). Sending this again will not help until then.`,
    );
  }
  // The client's errors wrap what went wrong (a gRPC status, a failed workflow task) in their cause.
  console.error(
    '[api] unexpected error',
    err instanceof Error ? err.message : err,
    err instanceof Error && err.cause ? `(cause: ${String(err.cause)})` : '',
  );
  return errorResponse(c, 500, 'internal', 'Something went wrong on our side. Try again: a decision is never applied twice.');
}
