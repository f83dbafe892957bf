/**
 * How decisions change a run: a checked plan is applied (or passed on to the sub-agent that owns the call),
 * `always` decisions settle later calls of their tool, deadlines apply `onTimeout`, refusals are recorded. Every
 * change goes through the run's own methods.
 */
import { log } from '@temporalio/workflow';
import { ApprovalTimeoutError, type DecisionRefusedError } from '../errors.js';
import { truncateBytes } from '../bounds/truncate.js';
import { liveApprovals } from '../policy/held-approvals.js';
import type { AuditEntry } from '../schemas/audit-entry.js';
import type { CallRecord, GateSettings, Resolution } from '../schemas/call-record.js';
import type { AlwaysDecision } from '../schemas/carried-state.js';
import type { AppliedDecision, DecideInput } from '../schemas/decision.js';
import type { CountedApproval } from '../schemas/pending-approval.js';
import type { ReviewOutcome } from '../schemas/review.js';
import type { AgentRun } from './agent-run.js';
import { announce, requestApproval } from './announce.js';
import { auditArgs } from './audit-log.js';
import { forward } from './forwarded-decisions.js';
import type { PlannedDecision } from './decision-plan.js';
import { PATCHES, takesPatch } from './patches.js';
import { preparedBeforeDeciding } from './proposal-preparation.js';
import { runDuration } from './run-duration.js';
import { oldestLiveApproval } from './quorum-lapse.js';
import { standingDecision } from './standing-decisions.js';
import { isoAt, workflowNow } from './workflow-clock.js';

export type Channel = 'update' | 'signal';

/**
 * Applies a checked plan. Calls of sub-agents are passed on to the run that owns them; `always` decisions also
 * settle other pending calls of the same tool; an edit into a tool the approver may not approve waits anew for
 * that tool's approvers.
 */
export function applyPlan(
  run: AgentRun,
  decisions: PlannedDecision[],
  via: Channel,
  who: Pick<DecideInput, 'approver' | 'groups'>,
): AppliedDecision[] {
  const applied = decisions.map((planned): AppliedDecision => {
    const { decision, call, approver } = planned;
    if (planned.token) run.usedTokens.use(planned.token.id, planned.token.expiresAt, workflowNow());
    const base = {
      id: call.id,
      type: decision.type,
      toolName: planned.toolName,
      argsHash: planned.argsHash,
      ...(approver && { approver }),
    };
    if (call.subAgentWorkflowId) {
      forward(run, call.subAgentWorkflowId, planned, via, who);
      return { ...base, forwardedTo: call.subAgentWorkflowId };
    }
    const record = (run.book.byPendingId(call.id) ?? run.breakpoints.byPendingId(call.id))!;
    if (planned.proposal) {
      propose(run, record, planned, via);
      return { ...base, proposedAs: record.pending!.id };
    }
    if (planned.quorum && planned.quorum.approvals < planned.quorum.required) {
      countTowardQuorum(run, record, planned, via);
      return { ...base, quorum: planned.quorum };
    }
    settle(run, record, resolutionOf(planned, via, record.gate!, record.pending?.approvals), {
      message: decision.message,
      always: decision.always,
      quorum: planned.quorum,
    });
    // The decided call's tool starts in this workflow task; lists learn of it in the run's next step. A breakpoint
    // starts no tool of its own: a gated call it lets through waits with no step to come (patch breakpointsListAtOnce).
    const startsTool = !planned.call.breakpoint || !takesPatch(PATCHES.breakpointsListAtOnce);
    if ((decision.type === 'approve' || decision.type === 'edit') && startsTool && takesPatch(PATCHES.toolFirst))
      run.visibility.deferListings();
    if (decision.always && (decision.type === 'approve' || decision.type === 'reject')) {
      const groups = planned.groups && takesPatch(PATCHES.standingDecisionsNeedAuthority) ? { groups: [...planned.groups] } : {};
      run.setAlways(record.pending!.toolName, { type: decision.type, approver, ...groups, message: decision.message });
    }
    return { ...base, ...(planned.quorum && { quorum: planned.quorum }) };
  });
  for (const record of run.book.calls) {
    const always = record.pending && !record.resolution ? standingDecision(run, record) : undefined;
    if (always) applyAlways(run, record, always);
  }
  return applied;
}

function resolutionOf(planned: PlannedDecision, via: Channel, gate: GateSettings, counted: CountedApproval[] = []): Resolution {
  const { decision, approver } = planned;
  switch (decision.type) {
    case 'edit':
      return { kind: 'edit', via, approver, toolName: planned.toolName, args: planned.args, ...consentWindow(gate) };
    case 'respond':
      return { kind: 'respond', via, approver, message: decision.message! };
    case 'reject':
      return { kind: 'reject', via, approver, message: decision.message };
    case 'approve': {
      // A completed quorum holds as long as its oldest approval does (patch quorumApprovalsLapse).
      const since =
        planned.quorum && takesPatch(PATCHES.quorumApprovalsLapse)
          ? oldestLiveApproval(counted, gate.validForMs, workflowNow())
          : undefined;
      return { kind: 'approve', via, approver, ...consentWindow(gate, since) };
    }
    case 'ignore':
      return { kind: 'ignore', via, approver };
  }
}

/** Until when an approval holds (the gate's `validFor`), counted from `since` (now, unless the oldest of a quorum's). */
export function consentWindow(gate: GateSettings, since = workflowNow()): { validUntil?: number } {
  return gate.validForMs !== undefined ? { validUntil: since + gate.validForMs } : {};
}

/** One approval of several needed: counted on the call, which waits for the rest. */
function countTowardQuorum(run: AgentRun, record: CallRecord, planned: PlannedDecision, via: Channel): void {
  const pending = record.pending!;
  const now = workflowNow();
  // Approvals that lapsed meanwhile go (patch quorumApprovalsLapse): the count starts again without them.
  const lapse = takesPatch(PATCHES.quorumApprovalsLapse) ? record.gate?.validForMs : undefined;
  // When it lapses, for views that judge it by their own clock (held-approvals.ts) without a rounded validFor.
  const until = lapse !== undefined && takesPatch(PATCHES.approvalsSayUntil) ? { until: isoAt(now + lapse) } : {};
  run.book.countApproval(record, { approver: planned.approver!, at: new Date(now).toISOString(), ...until }, (held) =>
    liveApprovals(held, lapse, now),
  );
  const entry = run.audit.append({
    via,
    outcome: 'applied',
    type: 'approve',
    id: pending.id,
    toolName: pending.toolName,
    approver: planned.approver,
    quorum: planned.quorum,
    ...(planned.decision.message !== undefined && { message: planned.decision.message }),
  });
  run.events.decided(entry);
}

/**
 * The approver edited the call into another tool whose policy gates it and which they may not approve: the edit
 * is recorded on the original call, and the new call waits for that tool's approvers under a new id.
 */
function propose(run: AgentRun, record: CallRecord, planned: PlannedDecision, via: Channel): void {
  const before = record.pending!;
  const proposal = planned.proposal!;
  run.book.markDecided(before.id, { type: 'edit', ...(planned.approver && { approver: planned.approver }) });
  const proposed = { toolName: planned.toolName, args: planned.args, approver: planned.approver, rule: proposal.rule };
  run.book.propose(record, proposed, proposal.gate);
  // Looked up before anyone may run it, while the call waits (proposal-preparation.ts); approvers are told then.
  const preparing = preparedBeforeDeciding(run, record, planned.toolName);
  announce(run, record, proposal.gate.description, true, undefined, preparing ? { preparing } : {});
  const entry = run.audit.append({
    via,
    outcome: 'applied',
    type: 'edit',
    id: before.id,
    toolName: before.toolName,
    ...(planned.approver && { approver: planned.approver }),
    argsBefore: auditArgs(before.args),
    argsAfter: auditArgs(planned.args),
    toolNameAfter: planned.toolName,
    proposedAs: record.pending!.id,
    ...(planned.decision.message !== undefined && { message: planned.decision.message }),
  });
  run.events.decided(entry);
  if (!preparing) requestApproval(run, record.pending!);
}

/** Records a refused input in the audit log; nothing else changes. */
export function recordRefusal(run: AgentRun, error: DecisionRefusedError, via: Channel, raw: unknown): void {
  const input = raw as { decisions?: { id?: unknown }[]; approver?: unknown } | undefined;
  const first = Array.isArray(input?.decisions) ? input.decisions[0] : undefined;
  const entry = run.audit.append({
    via,
    outcome: 'refused',
    ...(typeof first?.id === 'string' && { id: first.id.slice(0, 300) }),
    ...(typeof input?.approver === 'string' && { approver: input.approver.slice(0, 200) }),
    refusal: { code: error.code, message: truncateBytes(error.message, 4000) },
    input: truncateBytes(safeStringify(raw), 2000),
  });
  run.events.refused(entry);
  log.warn('decision refused', { code: error.code, via });
}

/** The deadline passed with no decision: apply the call's `onTimeout` (`fail` throws, failing the run). */
export function timeOut(run: AgentRun, record: CallRecord): void {
  const onTimeout = record.gate!.onTimeout;
  settle(run, record, onTimeout === 'approve' ? { kind: 'approve', via: 'timeout' } : { kind: 'timeout' }, {
    message: `no decision within the timeout; onTimeout: ${onTimeout}`,
  });
  run.refresh();
  if (onTimeout === 'fail')
    throw new ApprovalTimeoutError(
      record.pending?.toolName ?? record.toolName,
      record.pending?.id ?? record.id,
      runDuration(record.gate!.timeoutMs),
    );
}

/** Records a decision (or the deadline) on a call: the audit log, the decided ledger, the webhook event. */
export function settle(
  run: AgentRun,
  record: CallRecord,
  resolution: Resolution,
  extra: { message?: string; always?: boolean; quorum?: AuditEntry['quorum']; review?: ReviewOutcome } = {},
): AuditEntry {
  run.book.resolve(record, resolution);
  const via = resolution.kind === 'timeout' ? 'timeout' : resolution.via;
  const type = resolution.kind === 'timeout' ? 'timeout' : resolution.kind;
  const approver = resolution.kind === 'timeout' ? undefined : resolution.approver;
  // Automatic decisions name their decider apart from people: `reviewer:<name>`.
  const decidedBy = via === 'reviewer' ? approver : undefined;
  const id = record.pending?.id ?? record.id;
  // What was decided: the call as shown (a proposal shows another tool than the model's).
  const toolName = record.pending?.toolName ?? record.toolName;
  run.book.markDecided(id, { type, ...(approver && { approver }) });
  const entry = run.audit.append({
    via,
    outcome: 'applied',
    type,
    id,
    toolName,
    ...(decidedBy ? { decidedBy } : approver && { approver }),
    ...(extra.review && { review: extra.review }),
    ...(extra.quorum && { quorum: extra.quorum }),
    argsBefore: auditArgs(record.pending?.args ?? record.args),
    ...(resolution.kind === 'edit' && { argsAfter: auditArgs(resolution.args) }),
    ...(resolution.kind === 'edit' && resolution.toolName !== toolName && { toolNameAfter: resolution.toolName }),
    ...(extra.message !== undefined && { message: extra.message }),
    ...(extra.always && { always: true }),
  });
  if (record.pending) run.notifications.send(type === 'timeout' ? 'approval.timed_out' : 'approval.decided', record.pending, entry);
  run.events.decided(entry);
  return entry;
}

/** Settles a call by an earlier `always` decision for its tool. */
export function applyAlways(run: AgentRun, record: CallRecord, always: AlwaysDecision): void {
  const resolution: Resolution =
    always.type === 'approve'
      ? { kind: 'approve', via: 'always', approver: always.approver }
      : { kind: 'reject', via: 'always', approver: always.approver, message: always.message };
  settle(run, record, resolution, { message: `an earlier "always ${always.type}"` });
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // Nested past the stack, String() throws as JSON.stringify did: the refusal would be lost to an internal error.
    return '(input that cannot be shown as JSON)';
  }
}
