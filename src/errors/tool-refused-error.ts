import { HitlError } from './hitl-error.js';

const NAME = 'ToolRefusedError';

/**
 * Thrown by a tool for a failure retrying cannot fix (no such order, path outside the workspace): the model is
 * told at once instead of after the retry policy runs out.
 */
export class ToolRefusedError extends HitlError {
  override readonly name = NAME;
  readonly code = 'tool_refused';

  static isInstance(error: unknown): error is ToolRefusedError {
    return HitlError.hasName(error, NAME);
  }
}
