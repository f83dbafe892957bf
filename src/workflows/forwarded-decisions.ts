/**
 * Decisions for a sub-agent's calls: passed on to the run that owns the call, which checks them again and records
 * them in its own log. This run records that it passed one on, and (patch forwardsHearBack) notes what the owner
 * did with it when the owner reports: taken, refused with its reason, or never answered.
 */
import { getExternalWorkflowHandle, log } from '@temporalio/workflow';
import { decisionSignal } from '../contract/messages.js';
import { truncateBytes } from '../bounds/truncate.js';
import { argsHash } from '../policy/args-hash.js';
import type { DecidedVia } from '../schemas/call-record.js';
import type { DecideInput } from '../schemas/decision.js';
import type { AgentRun } from './agent-run.js';
import type { PlannedDecision } from './decision-plan.js';
import { PATCHES, takesPatch } from './patches.js';
import { ownerCallId, type ForwardVerdict } from './sub-agent-mirror.js';

/**
 * Passes a decision on to `workflowId`, the run that owns the call. The call stays hidden here until the sub-agent
 * reports what it still waits for (which also brings it back if refused there); this run remembers it passed the
 * decision on, so a second decision for it is refused here too.
 */
export function forward(
  run: AgentRun,
  workflowId: string,
  planned: PlannedDecision,
  via: DecidedVia,
  who: Pick<DecideInput, 'approver' | 'groups'>,
): void {
  const hearsBack = takesPatch(PATCHES.forwardsHearBack);
  const summary = { type: planned.decision.type, ...(planned.approver && { approver: planned.approver }) };
  const forwarded = { shownId: planned.call.id, owner: workflowId, toolName: planned.call.toolName, ...summary, sentAs: who.approver };
  run.children.forward(forwarded, hearsBack);
  if (planned.call.id.includes('/')) run.book.markDecided(planned.call.id, summary);
  const entry = run.audit.append({
    via,
    outcome: hearsBack ? 'forwarded' : 'applied',
    type: planned.decision.type,
    id: planned.call.id,
    toolName: planned.call.toolName,
    ...(planned.approver && { approver: planned.approver }),
    forwardedTo: workflowId,
  });
  run.events.decided(entry);
  // What the approver saw, checked by the owner against its own call: a report that showed other arguments or another
  // tool under this id (a forged one, say) gets a refusal there, never an approval of what nobody saw.
  const shown = { toolName: planned.call.toolName, argsHash: argsHash(planned.call.args) };
  const decision = { ...planned.decision, id: ownerCallId(planned.call.id), ...shown };
  getExternalWorkflowHandle(workflowId)
    .signal(decisionSignal, {
      decisions: [decision],
      ...(who.approver && { approver: who.approver }),
      ...(who.groups && { groups: who.groups }),
    })
    .catch((err) => {
      log.warn('could not forward a decision to a sub-agent', { workflowId, error: String(err) });
      const reason = `it could not be delivered to sub-agent ${workflowId}: ${truncateBytes(String(err), 1000)}`;
      noteVerdicts(run, run.children.undelivered(workflowId, planned.call.id, reason));
    });
}

/** Notes in the audit log (and the run's stream) what became of decisions passed on. */
export function noteVerdicts(run: AgentRun, verdicts: readonly ForwardVerdict[]): void {
  for (const verdict of verdicts) {
    const entry = run.audit.append({
      via: 'run',
      outcome: 'noted',
      event: `forward_${verdict.kind}`,
      type: verdict.type,
      id: verdict.shownId,
      toolName: verdict.toolName,
      ...(verdict.sentAs !== undefined && { approver: verdict.sentAs }),
      forwardedTo: verdict.owner,
      ...(verdict.kind === 'refused' && { refusal: { code: verdict.refusal.code, message: verdict.refusal.message } }),
      message: verdictMessage(verdict),
    });
    run.events.noted(entry);
  }
  if (verdicts.length) run.refresh();
}

function verdictMessage(verdict: ForwardVerdict): string {
  switch (verdict.kind) {
    case 'taken':
      return `sub-agent ${verdict.owner} took the decision`;
    case 'refused':
      return `sub-agent ${verdict.owner} refused the decision: ${verdict.refusal.message}`;
    case 'lost':
      return `the decision was not taken: ${verdict.reason}`;
  }
}
