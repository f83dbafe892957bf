import { HitlError } from './hitl-error.js';

const NAME = 'TemporalCliNotFoundError';

/** No route produced a `temporal` binary; the message lists every route and what to do. */
export class TemporalCliNotFoundError extends HitlError {
  override readonly name = NAME;
  readonly code = 'temporal_cli_not_found';

  constructor(readonly tried: string[]) {
    super(
      [
        'Could not find or build the temporal CLI. Tried, in order:',
        ...tried.map((t, i) => `  ${i + 1}. ${t}`),
        'Do one of: set TEMPORAL_CLI_PATH to a temporal binary; put `temporal` on PATH',
        '(https://docs.temporal.io/cli); install Go so it can be built from the module proxy;',
        'or give the machine internet access so the Temporal SDK can download it.',
      ].join('\n'),
    );
  }

  static isInstance(error: unknown): error is TemporalCliNotFoundError {
    return HitlError.hasName(error, NAME);
  }
}
