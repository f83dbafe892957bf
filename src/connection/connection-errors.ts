/**
 * Why a process could not connect to Temporal, typed. Apart from src/errors.ts because only src/connection/ throws
 * it; it is a HitlError like the rest, so the CLI and the API map it the same way.
 */
import { HitlError } from '../errors.js';

/** Why a process could not connect to Temporal; each names the settings to fix (src/connection/). */
export const CONNECTION_FAILURES = [
  'invalid_settings',
  'unreachable',
  'server_not_trusted',
  'server_name_mismatch',
  'client_certificate_required',
  'client_certificate_refused',
  'tls_required',
  'tls_not_offered',
  'unauthenticated',
  'permission_denied',
  'namespace_not_found',
  'unknown',
] as const;
export type ConnectionFailure = (typeof CONNECTION_FAILURES)[number];

/** The worker, the API or the CLI could not connect to Temporal; the message says which setting to fix. */
export class TemporalConnectionError extends HitlError {
  static readonly errorName = 'TemporalConnectionError';
  readonly code = 'temporal_connection_failed';
  constructor(
    readonly reason: ConnectionFailure,
    message: string,
    /** The variables (and config file keys) that decide it. */
    readonly settings: string[],
    options?: { cause?: unknown },
  ) {
    super(TemporalConnectionError.errorName, message);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
