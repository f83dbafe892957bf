import { HitlError } from './hitl-error.js';

const NAME = 'RunNotFoundError';

export class RunNotFoundError extends HitlError {
  override readonly name = NAME;
  readonly code = 'run_not_found';

  constructor(readonly workflowId: string) {
    super(`No run with id ${workflowId}.`);
  }

  static isInstance(error: unknown): error is RunNotFoundError {
    return HitlError.hasName(error, NAME);
  }
}
