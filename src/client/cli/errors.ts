/** Refusals and known errors print their message and exit non-zero; never a stack trace. */
import { ApprovalNotFoundError } from '../../errors/approval-not-found-error.js';
import { DecisionRefusedError } from '../../errors/decision-refused-error.js';
import { HitlError } from '../../errors/hitl-error.js';
import { RunNotFoundError } from '../../errors/run-not-found-error.js';
import { SessionClosedError } from '../../errors/session-closed-error.js';
import { style } from './output.js';

export const EXIT = { refused: 3, notFound: 4, failed: 1 } as const;

export function exitWithError(err: unknown, json: boolean): never {
  const code = err instanceof HitlError ? err.code : 'error';
  const message = err instanceof Error ? err.message : String(err);
  if (json) process.stderr.write(`${JSON.stringify({ error: { code, message } })}\n`);
  else if (DecisionRefusedError.isInstance(err)) process.stderr.write(`${style.red(`Refused (${err.code}):`)} ${message}\n`);
  else process.stderr.write(`${style.red('Error:')} ${message}\n`);
  process.exit(
    DecisionRefusedError.isInstance(err) || SessionClosedError.isInstance(err)
      ? EXIT.refused
      : RunNotFoundError.isInstance(err) || ApprovalNotFoundError.isInstance(err)
        ? EXIT.notFound
        : EXIT.failed,
  );
}
