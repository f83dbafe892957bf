import { HitlError } from './hitl-error.js';

const NAME = 'ToolFailedError';

/** A tool with `onError: 'fail'` failed after its retries. */
export class ToolFailedError extends HitlError {
  override readonly name = NAME;
  readonly code = 'tool_failed';

  constructor(
    readonly toolName: string,
    readonly callId: string,
    reason: string,
  ) {
    super(`Tool ${toolName} (call ${callId}) failed and its policy is onError: fail. ${reason}`);
  }

  static isInstance(error: unknown): error is ToolFailedError {
    return HitlError.hasName(error, NAME);
  }
}
