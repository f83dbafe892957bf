/**
 * The project's errors. Each has a stable `name` (safe to match on; the Temporal failure type it becomes) and a stable
 * `code` that HTTP statuses and CLI exit codes are mapped from. `instanceof` works across module copies and realms
 * (the workflow sandbox has its own `Error`): it checks a brand registered with `Symbol.for` and the name.
 */
import { ApplicationFailure } from '@temporalio/common';
import { truncateBytes } from './bounds/truncate.js';
import { REFUSAL_CODES, type RefusalCode } from './contract/refusal-codes.js';
import type { StoreRefusalCode } from './contract/store.js';

const BRAND = Symbol.for('temporal-hitl-agent.error');

/**
 * The most of a message a failure carries, in bytes (cut with a marker). A refusal may quote what it refuses (zod
 * lists every unknown key), and an update's rejection over the server's 2 MB payload limit failed the whole run
 * instead of refusing the update: a session's `message` with 1.2 MB of unknown keys, its message and stack trace
 * each quoting them. The stack trace repeats the message, so each stays far below.
 */
export const FAILURE_MESSAGE_BYTES = 16 * 1024;

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

  /** As a Temporal failure, typed by `name` and carrying `code`: it fails the run, not the task, and reaches clients. */
  toFailure(options: { nonRetryable?: boolean; cause?: Error } = {}): ApplicationFailure {
    return ApplicationFailure.create({
      type: this.name,
      message: truncateBytes(this.message, FAILURE_MESSAGE_BYTES),
      nonRetryable: options.nonRetryable ?? true,
      details: [{ code: this.code }],
      cause: options.cause,
    });
  }
}

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

/** A model hook or model selector failed, or answered something that is not a hook's answer: the run fails. */
export class ModelHookError extends HitlError {
  static readonly errorName = 'ModelHookError';
  readonly code = 'model_hook_failed';
  constructor(
    readonly hook: string,
    readonly hookName: string,
    reason: string,
  ) {
    super(ModelHookError.errorName, `The ${hook} hook "${hookName}" failed: ${reason}`);
  }
}

export class RunNotFoundError extends HitlError {
  static readonly errorName = 'RunNotFoundError';
  readonly code = 'run_not_found';
  constructor(readonly workflowId: string) {
    super(RunNotFoundError.errorName, `No run with workflow id ${workflowId}.`);
  }
}

/** A watcher that stopped reading while its run went on: it is dropped, and resumes from where it was. */
export class WatcherTooSlowError extends HitlError {
  static readonly errorName = 'WatcherTooSlowError';
  readonly code = 'watcher_too_slow';
  constructor(readonly workflowId: string) {
    super(WatcherTooSlowError.errorName, `This watcher fell too far behind run ${workflowId}; resume it from its last offset.`);
  }
}

/**
 * A message or `end` the run refused again and again as busy (src/contract/refusal-codes.ts, RUN_BUSY_TYPE): nothing was
 * recorded, and sending it again is safe.
 */
export class RunBusyError extends HitlError {
  static readonly errorName = 'RunBusyError';
  readonly code = 'busy';
  constructor(readonly workflowId: string) {
    super(RunBusyError.errorName, `Run ${workflowId} was busy and took nothing; send it again.`);
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
    // Said for an `end` too, which sends no message.
    super(SessionClosedError.errorName, `Run ${workflowId} is not an open session: ${reason}`);
  }
}

/** A message refused while the session's queue is full (LIMITS.queuedMessagesBytes); taken after its next turn starts. */
export class MessageQueueFullError extends HitlError {
  static readonly errorName = 'MessageQueueFullError';
  readonly code = 'queue_full';
  constructor(
    readonly workflowId: string,
    reason: string,
  ) {
    super(MessageQueueFullError.errorName, `Run ${workflowId} takes no more messages for now: ${reason}`);
  }
}

/** A `message` or `end` input that is not what a session takes (README, Sessions). */
export class InvalidMessageError extends HitlError {
  static readonly errorName = 'InvalidMessageError';
  readonly code = 'invalid_message';
  constructor(details: string) {
    super(InvalidMessageError.errorName, details);
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

/** `npm start` found another `npm start` running with the same state directory (its server and database). */
export class StateDirInUseError extends HitlError {
  static readonly errorName = 'StateDirInUseError';
  readonly code = 'state_dir_in_use';
  constructor(
    readonly ownerPid: number,
    stateDir: string,
  ) {
    super(
      StateDirInUseError.errorName,
      `Another npm start (pid ${ownerPid}) is running with the state directory ${stateDir}: stop it first (Ctrl-C in its terminal).`,
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

/** A tool's failure retrying cannot fix (no such order, a path outside the workspace): the model is told at once. */
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

/** An MCP server an agent declares could not be reached or listed; the run cannot know its tools. */
export class McpServerError extends HitlError {
  static readonly errorName = 'McpServerError';
  readonly code = 'mcp_server_unavailable';
  constructor(
    readonly server: string,
    reason: string,
  ) {
    super(McpServerError.errorName, `MCP server "${server}" is unavailable: ${reason}`);
  }
}

/** An agents file (HITL_AGENTS_FILE) that cannot be used; the message names the file, line and field. */
export class AgentsFileError extends HitlError {
  static readonly errorName = 'AgentsFileError';
  readonly code = 'agents_file_invalid';
  constructor(message: string) {
    super(AgentsFileError.errorName, message);
  }
}

/**
 * A signing key, key set (JWKS) or trust configuration that cannot be used (malformed JSON, an unsupported key type,
 * a duplicate key id), raised where it is read (process start, `hitl sign`), never in a workflow.
 */
export class SigningConfigError extends HitlError {
  static readonly errorName = 'SigningConfigError';
  readonly code = 'signing_config_invalid';
  constructor(message: string) {
    super(SigningConfigError.errorName, message);
  }
}

/** The store refused a write (nothing was written); thrown from a tool, it reaches the model without retries. */
export class StoreRefusedError extends HitlError {
  static readonly errorName = 'StoreRefusedError';
  constructor(
    readonly code: StoreRefusalCode,
    message: string,
  ) {
    super(StoreRefusedError.errorName, message);
  }
}
