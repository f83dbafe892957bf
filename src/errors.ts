/**
 * The project's errors. Each has a stable `name` (safe to match on, and the Temporal failure type it becomes) and a
 * stable `code` that HTTP statuses and CLI exit codes are mapped from. `instanceof` works across module copies and
 * realms (the workflow sandbox has its own `Error`): it checks a brand registered with `Symbol.for` and the name,
 * not the prototype chain.
 */
import { ApplicationFailure } from '@temporalio/common';

const BRAND = Symbol.for('temporal-hitl-agent.error');

export abstract class HitlError extends Error {
  /** Stable machine-readable code; HTTP and CLI map it to a status and an exit code. */
  abstract readonly code: string;

  constructor(name: string, message: string) {
    super(message);
    this.name = name;
    Object.defineProperty(this, BRAND, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[BRAND] !== true) return false;
    // `this` is the class `instanceof` was asked about; HitlError itself matches every branded error.
    return this === HitlError || (value as Error).name === (this as unknown as { errorName?: string }).errorName;
  }

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
}

export const REFUSAL_CODES = [
  'malformed',
  'empty',
  'too_large',
  'mixed_ids',
  'duplicate_id',
  'unknown_call',
  'already_decided',
  'decision_not_allowed',
  'unknown_tool',
  'invalid_edit_args',
  'args_hash_mismatch',
  'batch_count_mismatch',
  'nothing_pending',
  'approver_required',
  'approver_not_allowed',
  'four_eyes',
  'already_approved',
  'run_closed',
  'run_stuck',
  'token_refused',
  'internal',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/** A decision input the run refuses; nothing about the run changes. */
export class DecisionRefusedError extends HitlError {
  static readonly errorName = 'DecisionRefusedError';
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(DecisionRefusedError.errorName, message);
  }

  /** Reads the refusal code off a failure that crossed the wire (update rejection, HTTP). */
  static codeOf(failure: unknown): RefusalCode | undefined {
    const details = (failure as { details?: unknown[] } | undefined)?.details;
    const code = (details?.[0] as { code?: unknown } | undefined)?.code;
    return REFUSAL_CODES.includes(code as RefusalCode) ? (code as RefusalCode) : undefined;
  }
}

/** The approval id names nothing waiting: malformed, an unknown run, or a call no longer pending. */
export class ApprovalNotFoundError extends HitlError {
  static readonly errorName = 'ApprovalNotFoundError';
  readonly code = 'approval_not_found';
  constructor(
    readonly approvalId: string,
    reason: string,
  ) {
    super(ApprovalNotFoundError.errorName, `Approval ${approvalId} not found: ${reason}.`);
  }
}

/** A gated call's deadline passed and its policy says `onTimeout: fail`. */
export class ApprovalTimeoutError extends HitlError {
  static readonly errorName = 'ApprovalTimeoutError';
  readonly code = 'approval_timeout';
  constructor(
    readonly toolName: string,
    readonly callId: string,
    readonly timeout: string,
  ) {
    super(
      ApprovalTimeoutError.errorName,
      `No decision arrived for ${toolName} (${callId}) within ${timeout}; the policy says onTimeout: fail.`,
    );
  }
}

/** The start input of a run does not match the contract. */
export class InvalidRunInputError extends HitlError {
  static readonly errorName = 'InvalidRunInputError';
  readonly code = 'invalid_run_input';
  constructor(details: string) {
    super(InvalidRunInputError.errorName, `Invalid agentWorkflow input: ${details}`);
  }
}

/** The model API refused the request for good (4xx other than 408/409/429): retrying cannot help. */
export class ModelRequestRejectedError extends HitlError {
  static readonly errorName = 'ModelRequestRejectedError';
  readonly code = 'model_request_rejected';
  constructor(
    readonly status: number,
    apiMessage: string,
  ) {
    super(ModelRequestRejectedError.errorName, `The model API rejected the request (${status}): ${apiMessage}`);
  }
}

export class RunNotFoundError extends HitlError {
  static readonly errorName = 'RunNotFoundError';
  readonly code = 'run_not_found';
  constructor(readonly workflowId: string) {
    super(RunNotFoundError.errorName, `No run with workflow id ${workflowId}.`);
  }
}

/** A message or `end` sent to a run that is not a session, or whose session has ended. */
export class SessionClosedError extends HitlError {
  static readonly errorName = 'SessionClosedError';
  readonly code = 'session_closed';
  constructor(
    readonly workflowId: string,
    reason: string,
  ) {
    super(SessionClosedError.errorName, `Run ${workflowId} takes no more messages: ${reason}`);
  }
}

/** The model's final answer missed the agent's `responseFormat` twice (after one corrective retry). */
export class StructuredOutputError extends HitlError {
  static readonly errorName = 'StructuredOutputError';
  readonly code = 'structured_output_invalid';
  constructor(
    readonly agent: string,
    readonly validationError: string,
  ) {
    super(
      StructuredOutputError.errorName,
      `Agent "${agent}" returned output that does not match its responseFormat, twice. Last error: ${validationError}`,
    );
  }
}

export class TemporalCliNotFoundError extends HitlError {
  static readonly errorName = 'TemporalCliNotFoundError';
  readonly code = 'temporal_cli_not_found';
  constructor(readonly tried: string[]) {
    super(
      TemporalCliNotFoundError.errorName,
      [
        'Could not find or build the temporal CLI. Tried, in order:',
        ...tried.map((t, i) => `  ${i + 1}. ${t}`),
        'Do one of: set TEMPORAL_CLI_PATH to a temporal binary; put `temporal` on PATH',
        '(https://docs.temporal.io/cli); install Go so it can be built from the module proxy;',
        'or give the machine internet access so the Temporal SDK can download it.',
      ].join('\n'),
    );
  }
}

/** A tool failed after its last retry and its policy is `onError: 'fail'`. */
export class ToolFailedError extends HitlError {
  static readonly errorName = 'ToolFailedError';
  readonly code = 'tool_failed';
  constructor(
    readonly toolName: string,
    readonly callId: string,
    reason: string,
  ) {
    super(ToolFailedError.errorName, `Tool ${toolName} (${callId}) failed and its policy is onError: fail. ${reason}`);
  }
}

/**
 * Thrown by a tool for a failure retrying cannot fix (no such order, path outside the workspace): the model is
 * told at once instead of after the retry policy runs out.
 */
export class ToolRefusedError extends HitlError {
  static readonly errorName = 'ToolRefusedError';
  readonly code = 'tool_refused';
  constructor(message: string) {
    super(ToolRefusedError.errorName, message);
  }
}

export class UnknownAgentError extends HitlError {
  static readonly errorName = 'UnknownAgentError';
  readonly code = 'unknown_agent';
  constructor(
    readonly agent: string,
    readonly known: string[],
  ) {
    super(UnknownAgentError.errorName, `Unknown agent "${agent}". Known agents: ${known.join(', ') || '(none registered)'}.`);
  }
}

/**
 * A signing key, a key set (JWKS) or a trust configuration that cannot be used: malformed JSON, a key of an
 * unsupported type, a duplicate key id. Raised where the configuration is read (process start, `hitl sign`), never
 * inside a workflow, which receives configuration already validated.
 */
export class SigningConfigError extends HitlError {
  static readonly errorName = 'SigningConfigError';
  readonly code = 'signing_config_invalid';
  constructor(message: string) {
    super(SigningConfigError.errorName, message);
  }
}
