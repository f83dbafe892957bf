/**
 * How decisions change a run: a checked plan is applied (or forwarded to the sub-agent that owns the call),
 * standing `always` decisions settle later calls, deadlines apply `onTimeout`, refusals are recorded.
 */
import { getExternalWorkflowHandle, log } from '@temporalio/workflow';
import ms from 'ms';
import { ApprovalTimeoutError } from '../errors/approval-timeout-error.js';
import type { DecisionRefusedError } from '../errors/decision-refused-error.js';
import type { CallRecord, DecidedVia, Resolution } from '../schemas/call-record.js';
import type { StickyDecision } from '../schemas/carried-state.js';
import type { AppliedDecision } from '../schemas/decision.js';
import type { AgentRun } from './agent-run.js';
import type { PlannedDecision } from './decision-plan.js';
import { decisionSignal } from '../contract/messages.js';
import type { ChildApprovals } from './sub-agent-report.js';

type Channel = 'update' | 'signal';
interface Who {
  approver?: string;
  groups?: string[];
}

/**
 * Applies a checked plan. Calls of sub-agents are forwarded to the run that owns them; `always` decisions also
 * settle other pending calls of the same tool.
 */
export function applyPlan(run: AgentRun, decisions: PlannedDecision[], via: Channel, who: Who = {}): AppliedDecision[] {
  const applied = decisions.map((planned): AppliedDecision => {
    const { decision, call } = planned;
    const approver = planned.approver;
    const base = {
      id: call.id,
      type: decision.type,
      toolName: planned.toolName,
      argsHash: planned.argsHash,
      ...(approver && { approver }),
    };
    if (call.workflowId) {
      forward(run, call.workflowId, planned, via, who);
      return { ...base, forwardedTo: call.workflowId };
    }
    const record = run.calls.find((c) => c.id === call.id)!;
    const resolution: Resolution =
      decision.type === 'edit'
        ? { kind: 'edit', via, approver, toolName: planned.toolName, args: planned.args }
        : decision.type === 'respond'
          ? { kind: 'respond', via, approver, message: decision.message! }
          : decision.type === 'reject'
            ? { kind: 'reject', via, approver, message: decision.message }
            : { kind: 'approve', via, approver };
    settle(run, record, resolution, { message: decision.message, always: decision.always });
    if (decision.always && (decision.type === 'approve' || decision.type === 'reject')) {
      run.sticky.set(record.toolName, { type: decision.type, approver, message: decision.message });
    }
    return base;
  });
  for (const record of run.calls) {
    const standing = run.sticky.get(record.toolName);
    if (standing && record.pending && !record.resolution) applyStanding(run, record, standing);
  }
  run.publish(run.activity);
  return applied;
}

/**
 * A decision for a sub-agent's call goes to that run, which checks it again and records it. The call stays
 * hidden here until the sub-agent reports what it still waits for (which also brings it back if refused there).
 */
function forward(run: AgentRun, workflowId: string, planned: PlannedDecision, via: Channel, who: Who): void {
  run.forwarded.set(`${workflowId}/${planned.call.id}`, {
    type: planned.decision.type,
    ...(planned.approver && { approver: planned.approver }),
  });
  run.addAudit({
    via,
    outcome: 'applied',
    type: planned.decision.type,
    id: planned.call.id,
    toolName: planned.call.toolName,
    ...(planned.approver && { approver: planned.approver }),
    forwardedTo: workflowId,
  });
  const decision = { ...planned.decision, id: planned.call.id };
  getExternalWorkflowHandle(workflowId)
    .signal(decisionSignal, {
      decisions: [decision],
      ...(who.approver && { approver: who.approver }),
      ...(who.groups && { groups: who.groups }),
    })
    .catch((err) => log.warn('could not forward a decision to a sub-agent', { workflowId, error: String(err) }));
}

/** Records a refused input in the audit log; nothing else changes. */
export function recordRefusal(run: AgentRun, error: DecisionRefusedError, via: Channel, raw: unknown): void {
  const input = raw as { decisions?: { id?: string; type?: string }[]; approver?: string } | undefined;
  const first = Array.isArray(input?.decisions) ? input.decisions[0] : undefined;
  run.addAudit({
    via,
    outcome: 'refused',
    ...(typeof first?.id === 'string' && { id: first.id }),
    ...(typeof input?.approver === 'string' && { approver: input.approver }),
    refusal: { code: error.code, message: error.message },
    input: truncate(safeStringify(raw), 2000),
  });
  log.warn('decision refused', { code: error.code, via });
  // A parent that passed this decision on learns it did not take.
  run.publish(run.activity);
}

/** The deadline passed with no decision: apply the call's `onTimeout` (`fail` throws, failing the run). */
export function timeOut(run: AgentRun, record: CallRecord): void {
  const onTimeout = record.gate!.onTimeout;
  settle(run, record, onTimeout === 'approve' ? { kind: 'approve', via: 'timeout' } : { kind: 'timeout' }, {
    message: `no decision within the timeout; onTimeout: ${onTimeout}`,
  });
  run.publish(run.activity);
  if (onTimeout === 'fail') throw new ApprovalTimeoutError(record.toolName, record.id, ms(record.gate!.timeoutMs));
}

/**
 * A sub-agent reports what it waits for, and which calls it received decisions for since its last report. A
 * call this run forwarded stays hidden until the sub-agent has answered it (taken: gone; refused: back).
 */
export function mirrorChild(run: AgentRun, report: ChildApprovals): void {
  const { workflowId, seq, pending, tools, answered = [] } = report;
  const known = run.childApprovals.get(workflowId);
  if (known && known.seq >= seq) return; // an older report arriving late
  const stillPending = new Set(pending.map((p) => p.id));
  for (const key of [...run.forwarded.keys()].filter((k) => k.startsWith(`${workflowId}/`))) {
    const id = key.slice(workflowId.length + 1);
    if (answered.includes(id) || !stillPending.has(id)) run.forwarded.delete(key);
  }
  if (pending.length) run.childApprovals.set(workflowId, { seq, pending, tools });
  else run.childApprovals.delete(workflowId);
  run.publish(run.activity);
}

/** Settles a call by an earlier `always` decision for its tool. */
export function applyStanding(run: AgentRun, record: CallRecord, standing: StickyDecision): void {
  const resolution: Resolution =
    standing.type === 'approve'
      ? { kind: 'approve', via: 'sticky', approver: standing.approver }
      : { kind: 'reject', via: 'sticky', approver: standing.approver, message: standing.message };
  settle(run, record, resolution, { message: `standing "always ${standing.type}"` });
}

function settle(run: AgentRun, record: CallRecord, resolution: Resolution, extra: { message?: string; always?: boolean }): void {
  record.resolution = resolution;
  const via: DecidedVia = resolution.kind === 'timeout' ? 'timeout' : resolution.via;
  const type = via === 'timeout' ? 'timeout' : (resolution.kind as Exclude<Resolution['kind'], 'timeout'>);
  const approver = resolution.kind === 'timeout' ? undefined : resolution.approver;
  run.markDecided(record.id, { type, ...(approver && { approver }) });
  const entry = run.addAudit({
    via,
    outcome: 'applied',
    type,
    id: record.id,
    toolName: record.toolName,
    ...(approver && { approver }),
    argsBefore: record.args,
    ...(resolution.kind === 'edit' && { argsAfter: resolution.args }),
    ...(resolution.kind === 'edit' && resolution.toolName !== record.toolName && { toolNameAfter: resolution.toolName }),
    ...(extra.message !== undefined && { message: extra.message }),
    ...(extra.always && { always: true }),
  });
  if (record.pending) run.notifications.send(type === 'timeout' ? 'approval.timed_out' : 'approval.decided', record.pending, entry);
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
