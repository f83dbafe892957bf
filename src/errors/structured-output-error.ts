import { HitlError } from './hitl-error.js';

const NAME = 'StructuredOutputError';

/** The final answer did not match the agent's `responseFormat`, even after one corrective retry. */
export class StructuredOutputError extends HitlError {
  override readonly name = NAME;
  readonly code = 'structured_output_invalid';

  constructor(
    readonly agent: string,
    readonly validationError: string,
  ) {
    super(`Agent "${agent}" returned output that does not match its responseFormat, twice. Last error: ${validationError}`);
  }

  static isInstance(error: unknown): error is StructuredOutputError {
    return HitlError.hasName(error, NAME);
  }
}
