/** Refusals and known errors print their message and exit non-zero; never a stack trace. */
import {
  AgentsFileError,
  ApprovalNotFoundError,
  DecisionRefusedError,
  HitlError,
  InvalidRunInputError,
  InvalidMessageError,
  MessageQueueFullError,
  RunNotFoundError,
  RunBusyError,
  SessionClosedError,
  UnknownAgentError,
} from '../../errors.js';
import { ENCRYPTED_ENCODING } from '../../codec/aes-gcm-codec.js';
import { NotAnAgentRunError, RunClosedError, RunIdRefusedError, RunStuckError, StreamOffsetError } from '../run-errors.js';
import { jsonText, style } from './output.js';
import { terminalText } from './terminal-text.js';

export const EXIT = { failed: 1, usage: 2, refused: 3, notFound: 4, stuck: 5 } as const;

/** Options that do not make a valid request (found after Commander's own parsing). */
export class UsageError extends Error {}

/**
 * What to do about an error, when the error alone does not say: the SDK's words for a payload this process cannot
 * decode ("Unknown encoding: binary/encrypted") name no setting.
 */
export function withHint(message: string): string {
  return message.includes(ENCRYPTED_ENCODING) ? `${message}\n${ENCRYPTED_HINT}` : message;
}

/** What to set to read a run whose payloads are encrypted. */
const ENCRYPTED_HINT = `The run's payloads are encrypted: set HITL_ENCRYPTION_KEYS to the workers' keys (README, "Encryption").`;

export function exitWithError(err: unknown, json: boolean): never {
  const code = err instanceof HitlError ? err.code : err instanceof UsageError ? 'usage' : 'error';
  const message = withHint(err instanceof Error ? err.message : String(err));
  // A message may name what came from outside (a tool, an approver, a run's id): printed for people, it is made safe.
  const human = terminalText(message, { multiline: true, indent: '  ' });
  if (json) process.stderr.write(`${jsonText({ error: { code, message } })}\n`);
  else if (err instanceof DecisionRefusedError) process.stderr.write(`${style.red(`Refused (${err.code}):`)} ${human}\n`);
  else process.stderr.write(`${style.red('Error:')} ${human}\n`);
  process.exit(exitCode(err));
}

function exitCode(err: unknown): number {
  if (
    err instanceof UsageError ||
    err instanceof UnknownAgentError ||
    err instanceof InvalidRunInputError ||
    err instanceof InvalidMessageError ||
    err instanceof AgentsFileError ||
    err instanceof StreamOffsetError ||
    err instanceof RunIdRefusedError
  )
    return EXIT.usage;
  if (err instanceof DecisionRefusedError) {
    // As over HTTP (404): a call the run does not have is not found, not refused.
    if (err.code === 'unknown_call') return EXIT.notFound;
    return err.code === 'run_stuck' ? EXIT.stuck : EXIT.refused;
  }
  if (err instanceof RunStuckError) return EXIT.stuck;
  if (
    err instanceof SessionClosedError ||
    err instanceof RunBusyError ||
    err instanceof MessageQueueFullError ||
    err instanceof RunClosedError
  )
    return EXIT.refused;
  if (err instanceof RunNotFoundError || err instanceof ApprovalNotFoundError || err instanceof NotAnAgentRunError) return EXIT.notFound;
  return EXIT.failed;
}
