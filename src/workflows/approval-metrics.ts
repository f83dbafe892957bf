/**
 * The run's approval metrics, observed rather than emitted from the decision code: at each `refresh()` the run
 * shows what waits and what its audit log holds, and this compares that with what it saw the time before. A call
 * that appears among the pending was requested; an applied audit entry for a call seen pending was decided (or
 * timed out, when the deadline decided it), `at - requestedAt` after it was requested, both in workflow time.
 *
 * Emitted through the SDK's workflow `metricMeter`, which drops every value while the workflow replays, so a run
 * rebuilt from history (after a worker restart or a cache eviction) counts nothing twice. Calls a continued run
 * carried over were counted by the run before it, and a sub-agent's calls by the sub-agent's own run.
 *
 * How many approvals wait is a gauge over all runs, which no single run can set; the API serves it from
 * visibility (`hitl_approvals_pending`, src/api/api-metrics.ts).
 */
import type { MetricCounter, MetricHistogram } from '@temporalio/common';
import { metricMeter, workflowInfo } from '@temporalio/workflow';
import { METRICS } from '../contract/metric-names.js';
import type { AuditEntry } from '../schemas/audit-entry.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { AuditLog } from './audit-log.js';

type Seen = Pick<PendingApproval, 'toolName' | 'requestedAt' | 'onTimeout'>;

interface Instruments {
  requested: MetricCounter;
  decided: MetricCounter;
  timedOut: MetricCounter;
  decisionSeconds: MetricHistogram;
}

export class ApprovalMetrics {
  /** This run's own pending calls as of the last observation, by id. */
  #seen = new Map<string, Seen>();
  /** The audit entries already looked at; unset until the first observation. */
  #auditSeq?: number;
  #instruments?: Instruments;

  observe(pending: readonly PendingApproval[], audit: AuditLog): void {
    const first = this.#auditSeq === undefined;
    for (const entry of audit.since(this.#auditSeq ?? audit.lastSeq)) this.#settled(entry);
    this.#auditSeq = audit.lastSeq;
    const carried = first && workflowInfo().continuedFromExecutionRunId !== undefined;
    const now = new Map<string, Seen>();
    for (const call of pending) {
      if (call.subAgentWorkflowId) continue;
      now.set(call.id, { toolName: call.toolName, requestedAt: call.requestedAt, onTimeout: call.onTimeout });
      if (!this.#seen.has(call.id) && !carried) this.#metrics().requested.add(1, { tool: call.toolName });
    }
    this.#seen = now;
  }

  #settled(entry: AuditEntry): void {
    const call = entry.outcome === 'applied' && entry.id !== undefined && !entry.forwardedTo ? this.#seen.get(entry.id) : undefined;
    if (!call || !entry.type) return;
    // One approval of several a quorum needs does not decide the call; the one that completes the quorum does.
    if (entry.quorum && entry.quorum.approvals < entry.quorum.required) return;
    const metrics = this.#metrics();
    if (entry.via === 'timeout') {
      metrics.timedOut.add(1, { tool: call.toolName, decision: call.onTimeout });
      return;
    }
    const decision = entry.type;
    metrics.decided.add(1, { tool: call.toolName, decision });
    const seconds = (Date.parse(entry.at) - Date.parse(call.requestedAt)) / 1000;
    if (Number.isFinite(seconds)) metrics.decisionSeconds.record(Math.max(0, seconds), { tool: call.toolName, decision });
  }

  /** Made on first use: the meter works only inside a workflow. */
  #metrics(): Instruments {
    this.#instruments ??= {
      requested: metricMeter.createCounter(METRICS.approvalsRequested, 'approvals', 'Gated tool calls that started waiting for a decision'),
      decided: metricMeter.createCounter(METRICS.approvalsDecided, 'approvals', 'Pending calls decided by an approver'),
      timedOut: metricMeter.createCounter(METRICS.approvalsTimedOut, 'approvals', 'Pending calls whose deadline decided them'),
      decisionSeconds: metricMeter.createHistogram(METRICS.approvalDecisionSeconds, 'float', 's', 'Seconds from request to decision'),
    };
    return this.#instruments;
  }
}
