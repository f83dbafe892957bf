import { HitlError } from './hitl-error.js';

const NAME = 'TemporalServerNotFoundError';

/** No route produced the Temporal server or its SQL tool; the message lists every route and what to do. */
export class TemporalServerNotFoundError extends HitlError {
  override readonly name = NAME;
  readonly code = 'temporal_server_not_found';

  constructor(
    readonly binary: string,
    readonly tried: string[],
  ) {
    super(
      [
        `Could not find or build ${binary}. Tried, in order:`,
        ...tried.map((t, i) => `  ${i + 1}. ${t}`),
        'Do one of: set TEMPORAL_SERVER_PATH and TEMPORAL_SQL_TOOL_PATH to the binaries; put temporal-server and',
        'temporal-sql-tool on PATH (Temporal server releases ship both); or install Go so they can be built from',
        'the module proxy.',
      ].join('\n'),
    );
  }

  static isInstance(error: unknown): error is TemporalServerNotFoundError {
    return HitlError.hasName(error, NAME);
  }
}
