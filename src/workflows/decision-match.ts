/**
 * Pairs each decision with the call it decides: by id (any subset, any order, the REST rule), or without ids in
 * order onto the oldest pending batch, whose size must match (LangChain's rule).
 */
import { DecisionRefusedError } from '../errors.js';
import type { DecideInput } from '../schemas/decision.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { PlanContext } from './decision-context.js';
import { announcedAgainAs } from '../contract/call-ids.js';
import { oldestBatch } from '../contract/pending-batch.js';

export function checkMatch(input: DecideInput, ctx: Pick<PlanContext, 'pending' | 'decided'>): PendingApproval[] | DecisionRefusedError {
  const withIds = input.decisions.filter((d) => d.id !== undefined).length;
  if (withIds > 0 && withIds < input.decisions.length) {
    return new DecisionRefusedError(
      'mixed_ids',
      'Give every decision an id, or none (then they apply in order to the oldest pending batch).',
    );
  }
  if (withIds === 0) {
    const batch = oldestBatch(ctx.pending);
    if (batch.length === 0) return new DecisionRefusedError('nothing_pending', 'Nothing is waiting for a decision in this run.');
    if (batch.length !== input.decisions.length) {
      return new DecisionRefusedError(
        'batch_count_mismatch',
        `Got ${input.decisions.length} decision(s) without ids, but the oldest pending batch has ${batch.length} call(s) ` +
          `(${batch.map((p) => `${p.id} ${p.toolName}`).join(', ')}). Send one decision per call in that order, or use ids.`,
      );
    }
    return batch;
  }
  const seen = new Set<string>();
  const calls: PendingApproval[] = [];
  for (const { id } of input.decisions) {
    if (seen.has(id!)) return new DecisionRefusedError('duplicate_id', `${id} appears more than once in this input.`);
    seen.add(id!);
    const call = ctx.pending.find((p) => p.id === id);
    if (call) {
      calls.push(call);
      continue;
    }
    const earlier = ctx.decided.get(id!);
    if (earlier) {
      // `settled`: an id the run handed out and no longer keeps in detail, which may never have waited for anyone (a
      // call that ran without a gate, was invalid, or was replaced at a breakpoint): not "decided" by someone.
      const again = announcedAgainAs(
        id!,
        ctx.pending.map((p) => p.id),
      );
      const now = again ? ` It waits again as ${again}: decide that.` : '';
      if (earlier.type === 'settled')
        return new DecisionRefusedError(
          'already_decided',
          `${id} is not waiting for a decision: the run dealt with it earlier (it ran without a gate, its arguments were invalid, or it was decided).${now}`,
        );
      const by = earlier.approver ? ` by ${earlier.approver}` : '';
      return new DecisionRefusedError('already_decided', `${id} was already decided (${earlier.type}${by}).${now}`);
    }
    const waiting = ctx.pending.map((p) => p.id).join(', ') || 'none';
    return new DecisionRefusedError('unknown_call', `No pending call has id ${id}. Pending: ${waiting}.`);
  }
  return calls;
}
