/**
 * Errors from setting up the local Temporal pieces (the CLI, the server build, PostgreSQL). Apart from src/errors.ts
 * because only the dev tooling throws them; each message lists what was tried and what to do.
 */
import { HitlError } from '../errors.js';

export class TemporalCliNotFoundError extends HitlError {
  static readonly errorName = 'TemporalCliNotFoundError';
  readonly code = 'temporal_cli_not_found';
  constructor(readonly tried: string[]) {
    super(
      TemporalCliNotFoundError.errorName,
      [
        'Could not find or build the temporal CLI. Tried, in order:',
        ...tried.map((t, i) => `  ${i + 1}. ${t}`),
        'Do one of: set TEMPORAL_CLI_PATH to a temporal binary; put `temporal` on PATH',
        '(https://docs.temporal.io/cli); install Go so it can be built from the module proxy;',
        'or give the machine internet access so the Temporal SDK can download it.',
      ].join('\n'),
    );
  }
}

/** No route produced the Temporal server or its SQL tool; the message lists every route and what to do. */
export class TemporalServerNotFoundError extends HitlError {
  static readonly errorName = 'TemporalServerNotFoundError';
  readonly code = 'temporal_server_not_found';
  constructor(
    readonly binary: string,
    readonly tried: string[],
  ) {
    super(
      TemporalServerNotFoundError.errorName,
      [
        `Could not find or build ${binary}. Tried, in order:`,
        ...tried.map((t, i) => `  ${i + 1}. ${t}`),
        'Do one of: set TEMPORAL_SERVER_PATH and TEMPORAL_SQL_TOOL_PATH to the binaries; put temporal-server and',
        'temporal-sql-tool on PATH (Temporal server releases ship both); or install Go so they can be built from',
        'the module proxy.',
      ].join('\n'),
    );
  }
}

/** PostgreSQL's server programs (initdb, pg_ctl) are not installed, or cannot be run from here. */
export class PostgresNotFoundError extends HitlError {
  static readonly errorName = 'PostgresNotFoundError';
  readonly code = 'postgres_not_found';
  constructor(readonly reason = 'no initdb on PATH and none in the usual PostgreSQL directories') {
    super(
      PostgresNotFoundError.errorName,
      `Cannot run a PostgreSQL cluster: ${reason}. Install PostgreSQL (Debian: apt-get install postgresql).`,
    );
  }
}
