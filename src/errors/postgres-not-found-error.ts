import { HitlError } from './hitl-error.js';

const NAME = 'PostgresNotFoundError';

/** PostgreSQL's server programs (initdb, pg_ctl) are not installed, or cannot be run from here. */
export class PostgresNotFoundError extends HitlError {
  override readonly name = NAME;
  readonly code = 'postgres_not_found';

  constructor(readonly reason = 'no initdb on PATH and none under /usr/lib/postgresql/*/bin') {
    super(`Cannot run a PostgreSQL cluster: ${reason}. Install PostgreSQL (Debian: apt-get install postgresql).`);
  }

  static isInstance(error: unknown): error is PostgresNotFoundError {
    return HitlError.hasName(error, NAME);
  }
}
