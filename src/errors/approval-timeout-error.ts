import { HitlError } from './hitl-error.js';

const NAME = 'ApprovalTimeoutError';

/** A gated call with `onTimeout: 'fail'` got no decision before its deadline. */
export class ApprovalTimeoutError extends HitlError {
  override readonly name = NAME;
  readonly code = 'approval_timeout';

  constructor(
    readonly toolName: string,
    readonly callId: string,
    readonly timeout: string,
  ) {
    super(`No decision arrived for ${toolName} (call ${callId}) within ${timeout}; the policy says onTimeout: fail.`);
  }

  static isInstance(error: unknown): error is ApprovalTimeoutError {
    return HitlError.hasName(error, NAME);
  }
}
