/**
 * Keeps what the outside sees of a run current: search attributes, the memo's list of pending approvals, the
 * Temporal UI's current details, and (for a sub-agent) its parent's mirror of what it waits for.
 */
import { getExternalWorkflowHandle, log, patched, setCurrentDetails, upsertMemo, workflowInfo } from '@temporalio/workflow';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { AgentRun } from './agent-run.js';
import { currentDetails } from './current-details.js';
import { childApprovalsSignal, type ChildApprovals } from './sub-agent-report.js';
import { SearchAttributePublisher } from './search-attributes.js';

/** Added after runs were already paused: see README, "Changing workflow code". */
const PENDING_IN_MEMO_PATCH = 'pending-approvals-in-memo';
const REPORT_EVERY_ANSWER_PATCH = 'sub-agents-report-every-answer';
/** Bytes of pending approvals kept in the memo; beyond that, lists ask the run itself. */
const MEMO_PENDING_LIMIT = 16_000;

const HITL_STATUS = {
  running: 'Running',
  awaiting_approval: 'AwaitingApproval',
  awaiting_message: 'AwaitingMessage',
  completed: 'Completed',
  max_steps: 'Completed',
  failed: 'Failed',
  canceled: 'Canceled',
} as const;

export class RunVisibility {
  /** The last report to the parent (its number survives continue-as-new: the parent ignores older ones). */
  parentReport = { seq: 0, key: '', auditSeq: 0 };
  private memoPendingKey = '[]';
  private readonly searchAttributes = new SearchAttributePublisher();

  constructor(private readonly run: AgentRun) {}

  publish(pending: PendingApproval[], activity: string): void {
    const run = this.run;
    this.searchAttributes.publish({ agent: run.agent, status: HITL_STATUS[run.status], pending });
    this.publishPendingMemo(pending);
    setCurrentDetails(currentDetails(run.step, run.maxSteps, pending.length ? 'waiting for approval' : activity, pending));
    this.tellParent(pending);
  }

  /**
   * What waits, in the memo too: lists across runs read it from visibility instead of querying every run (a
   * sub-agent's calls are listed through its parent). Too large a list is left out; lists then ask the run.
   */
  private publishPendingMemo(pending: PendingApproval[]): void {
    if (workflowInfo().parent) return;
    const text = JSON.stringify(pending);
    const value = text.length <= MEMO_PENDING_LIMIT ? pending : null;
    const key = value ? text : 'too-large';
    if (key === this.memoPendingKey || !patched(PENDING_IN_MEMO_PATCH)) return;
    this.memoPendingKey = key;
    upsertMemo({ pendingApprovals: value ?? { tooLarge: true } });
  }

  /** A sub-agent keeps its parent's view of what waits current, so decisions can be sent to the parent. */
  private tellParent(pending: PendingApproval[]): void {
    const parent = workflowInfo().parent;
    if (!parent) return;
    const { audit, auditDropped } = this.run;
    // Any new audit entry (a decision taken or refused) sends a report, so a forwarded decision never goes unanswered.
    const auditSeq = auditDropped + audit.length;
    const pendingKey = pending.map((p) => `${p.workflowId ?? ''}/${p.id}`).join(',');
    const key =
      pendingKey === this.parentReport.key.split('#')[0] && !patched(REPORT_EVERY_ANSWER_PATCH)
        ? this.parentReport.key
        : `${pendingKey}#${auditSeq}`;
    if (key === this.parentReport.key) return;
    const answered = audit.filter((e) => e.seq > this.parentReport.auditSeq && e.id).map((e) => e.id!);
    this.parentReport = { seq: this.parentReport.seq + 1, key, auditSeq };
    const report: ChildApprovals = {
      workflowId: workflowInfo().workflowId,
      seq: this.parentReport.seq,
      pending,
      tools: this.run.snapshot!.tools,
      answered,
    };
    getExternalWorkflowHandle(parent.workflowId)
      .signal(childApprovalsSignal, report)
      .catch((err) => log.warn('could not tell the parent run what waits', { error: String(err) }));
  }
}
