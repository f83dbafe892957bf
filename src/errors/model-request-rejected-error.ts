import { HitlError } from './hitl-error.js';

const NAME = 'ModelRequestRejectedError';

/** The model API answered 4xx (not 408/409/429): retrying the same request cannot succeed. */
export class ModelRequestRejectedError extends HitlError {
  override readonly name = NAME;
  readonly code = 'model_request_rejected';

  constructor(
    readonly status: number,
    apiMessage: string,
  ) {
    super(`The model API rejected the request (${status}): ${apiMessage}`);
  }

  static isInstance(error: unknown): error is ModelRequestRejectedError {
    return HitlError.hasName(error, NAME);
  }
}
