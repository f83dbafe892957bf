import { HitlError } from './hitl-error.js';

const NAME = 'SessionClosedError';

/** A message or `end` for a run that is not a session, or whose session has ended. */
export class SessionClosedError extends HitlError {
  override readonly name = NAME;
  readonly code = 'session_closed';

  constructor(
    readonly runId: string,
    reason: string,
  ) {
    super(`Run ${runId} takes no more messages: ${reason}`);
  }

  static isInstance(error: unknown): error is SessionClosedError {
    return HitlError.hasName(error, NAME);
  }
}
