import { HitlError } from './hitl-error.js';

const NAME = 'UnknownAgentError';

export class UnknownAgentError extends HitlError {
  override readonly name = NAME;
  readonly code = 'unknown_agent';

  constructor(
    readonly agent: string,
    readonly known: string[],
  ) {
    super(`Unknown agent "${agent}". Known agents: ${known.join(', ') || '(none registered)'}.`);
  }

  static isInstance(error: unknown): error is UnknownAgentError {
    return HitlError.hasName(error, NAME);
  }
}
