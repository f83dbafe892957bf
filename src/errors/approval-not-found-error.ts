import { HitlError } from './hitl-error.js';

const NAME = 'ApprovalNotFoundError';

/** The approval id names nothing waiting: malformed, an unknown run, or a call no longer pending. */
export class ApprovalNotFoundError extends HitlError {
  override readonly name = NAME;
  readonly code = 'approval_not_found';

  constructor(
    readonly approvalId: string,
    reason: string,
  ) {
    super(`Approval ${approvalId} not found: ${reason}.`);
  }

  static isInstance(error: unknown): error is ApprovalNotFoundError {
    return HitlError.hasName(error, NAME);
  }
}
