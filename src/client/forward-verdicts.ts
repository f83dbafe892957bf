/**
 * A decision for a sub-agent's call is checked twice: by the run that shows the call, which passes it on
 * (`forwardedTo` in the update's answer), and by the sub-agent that owns the call, which may still refuse it (it was
 * decided there first, or a token it checks does not hold). The run notes what the owner did when the owner reports
 * (patch forwardsHearBack; a few hundred milliseconds). The client waits that long for the note, so whoever decided
 * hears the owner's refusal as a refusal, and not a 200 for a decision that was never taken.
 */
import { REFUSAL_CODES, type RefusalCode } from '../contract/refusal-codes.js';
import { DecisionRefusedError } from '../errors.js';
import type { AuditEntry } from '../schemas/audit-entry.js';
import type { AppliedDecision } from '../schemas/decision.js';

/** How long a decision's answer waits for the owner of a sub-agent's call, by default. */
export const OWNER_ANSWER_WAIT_MS = 5000;
const POLL_MS = 100;

/** Pages of a run's audit log from `from` (the seq of the last entry already read), as the runState query gives them. */
export type ReadAudit = (from: number) => Promise<{ decisions: AuditEntry[]; moreDecisions?: boolean }>;

/**
 * Waits up to `waitMs` for what the owners did with the decisions `applied` passed on. Resolves when each was taken,
 * or the time is up (the answer then says only `forwardedTo`, as runs from before the note do; the approval's
 * status says the rest later). Throws the owner's refusal, for the first refused, and `run_closed` for one that never
 * reached its owner or that its owner ended without taking.
 */
export async function awaitOwnersAnswers(
  readAudit: ReadAudit,
  applied: readonly AppliedDecision[],
  waitMs = OWNER_ANSWER_WAIT_MS,
): Promise<void> {
  const ids = new Set(applied.flatMap((a) => (a.forwardedTo ? [a.id] : [])));
  if (ids.size === 0) return;
  const passedOn = new Set<string>();
  const answered = new Map<string, AuditEntry>();
  let from = 0;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const page = await readAudit(from);
    for (const entry of page.decisions) {
      from = entry.seq;
      if (entry.id === undefined || !ids.has(entry.id)) continue;
      if (entry.outcome === 'forwarded') {
        passedOn.add(entry.id);
        answered.delete(entry.id);
      } else if (entry.event?.startsWith('forward_') && passedOn.has(entry.id) && !answered.has(entry.id)) {
        answered.set(entry.id, entry);
      }
    }
    if (page.moreDecisions) continue;
    // A run from before the note records a decision passed on as applied: nothing will say more.
    if (passedOn.size < ids.size && from > 0) return;
    const refused = [...answered.values()].find((e) => e.event === 'forward_refused' || e.event === 'forward_lost');
    if (refused) throw ownerRefusal(refused);
    if (answered.size === ids.size || Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function ownerRefusal(entry: AuditEntry): DecisionRefusedError {
  // Never reached it, or it ended first: nothing took the decision.
  if (entry.event === 'forward_lost')
    return new DecisionRefusedError('run_closed', `${entry.id}: ${entry.message ?? 'the decision was not taken'}`);
  const code = entry.refusal?.code;
  const known: RefusalCode = REFUSAL_CODES.includes(code as RefusalCode) ? (code as RefusalCode) : 'internal';
  return new DecisionRefusedError(known, `${entry.forwardedTo} owns ${entry.id} and refused the decision: ${entry.refusal?.message ?? ''}`);
}
