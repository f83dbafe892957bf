import { HitlError } from './hitl-error.js';

const NAME = 'InvalidRunInputError';

export class InvalidRunInputError extends HitlError {
  override readonly name = NAME;
  readonly code = 'invalid_run_input';

  constructor(details: string) {
    super(`Invalid agentWorkflow input: ${details}`);
  }

  static isInstance(error: unknown): error is InvalidRunInputError {
    return HitlError.hasName(error, NAME);
  }
}
