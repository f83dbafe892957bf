/**
 * Switching signing on (HITL_SIGNING_KEY) must not strand the runs already waiting: a run keeps the signers its worker
 * trusted when it started, so one that started with none checks no token, and refuses one (`tokens_unchecked`)
 * rather than take it unchecked. It takes who decides as the input names them, as it always did; so the client sends
 * such a decision again without its tokens, in the same name. Never without a name: that would decide as no one.
 */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { DecisionRefusedError } from '../errors.js';
import type { DecideInput } from '../schemas/decision.js';

/** The input to send again unsigned after `err`, or undefined when `err` is no reason to. */
export function unsignedRetry(err: unknown, input: DecideInput): DecideInput | undefined {
  if (input.approver === undefined || !input.decisions.some((d) => d.token !== undefined)) return undefined;
  const refused = err instanceof WorkflowUpdateFailedError && DecisionRefusedError.codeOf(err.cause) === 'tokens_unchecked';
  if (!refused) return undefined;
  return { ...input, decisions: input.decisions.map(({ token: _token, ...decision }) => decision) };
}
