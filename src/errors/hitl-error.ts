/**
 * Base for the project's errors. `name` is stable and safe to match on; `isInstance` works across module
 * copies and realms (the workflow sandbox has its own `Error`), where `instanceof` does not.
 */
import { ApplicationFailure } from '@temporalio/common';

export abstract class HitlError extends Error {
  /** Stable machine-readable code; HTTP and CLI map it to a status and an exit code. */
  abstract readonly code: string;

  /**
   * The error as a Temporal failure, typed by `name` and carrying `code`, so it fails the run (not the workflow
   * task) and reaches clients intact.
   */
  toFailure(options: { nonRetryable?: boolean; cause?: Error } = {}): ApplicationFailure {
    return ApplicationFailure.create({
      type: this.name,
      message: this.message,
      nonRetryable: options.nonRetryable ?? true,
      details: [{ code: this.code }],
      cause: options.cause,
    });
  }

  protected static hasName(error: unknown, name: string): boolean {
    return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name;
  }
}
