/**
 * Keeps what the outside sees of a run current: search attributes, the memo (the prompt and the pending list),
 * the Temporal UI's current details, and (for a sub-agent) its parent's mirror of what it waits for. The run calls
 * `publish` from one place, its `refresh()`; every upsert and report is made only when something changed.
 */
import { getExternalWorkflowHandle, log, setCurrentDetails, upsertMemo, workflowInfo } from '@temporalio/workflow';
import type { RunStatus } from '../contract/run-status.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { truncateChars } from '../bounds/truncate.js';
import type { AuditLog } from './audit-log.js';
import { currentDetails } from './current-details.js';
import { PATCHES, takesPatch } from './patches.js';
import { SearchAttributePublisher } from './search-attributes.js';
import { childApprovalsSignal, type ChildApprovals } from './sub-agent-report.js';

/** Bytes of pending approvals kept in the memo; beyond that, lists ask the run itself. */
const MEMO_PENDING_LIMIT = 16_000;

/** What visibility reads of a run. */
export interface VisibleRun {
  agent: string;
  status: RunStatus;
  step: number;
  maxSteps: number;
  /** What the loop is doing, in words, for the Temporal UI. */
  phase: string;
  pending: PendingApproval[];
  tools: readonly string[];
  audit: AuditLog;
}

export class RunVisibility {
  /** The last report to the parent (its number survives continue-as-new: the parent ignores older ones). */
  #parentReport = { seq: 0, key: '', auditSeq: 0 };
  #memoPendingKey = '[]';
  readonly #searchAttributes = new SearchAttributePublisher();

  /** Lists (approval inboxes, the Temporal UI) show who asked what without querying every run. */
  begin(prompt: string, requestedBy: string | undefined): void {
    upsertMemo({ prompt: truncateChars(prompt, 500), ...(requestedBy && { requestedBy }) });
  }

  /** A resumed run goes on numbering its reports to the parent. */
  resume(parentReportSeq: number, auditSeq: number): void {
    this.#parentReport = { seq: parentReportSeq, key: '', auditSeq };
  }

  get parentReportSeq(): number {
    return this.#parentReport.seq;
  }

  publish(run: VisibleRun): void {
    this.#searchAttributes.publish({ agent: run.agent, status: run.status, pending: run.pending });
    this.#publishPendingMemo(run.pending);
    setCurrentDetails(currentDetails(run.step, run.maxSteps, run.pending.length ? 'waiting for approval' : run.phase, run.pending));
    this.#tellParent(run);
  }

  /**
   * What waits, in the memo too: lists across runs read it from visibility instead of querying every run (a
   * sub-agent's calls are listed through its parent). Too large a list is left out; lists then ask the run.
   */
  #publishPendingMemo(pending: PendingApproval[]): void {
    if (workflowInfo().parent) return;
    const text = JSON.stringify(pending);
    const value = text.length <= MEMO_PENDING_LIMIT ? pending : null;
    const key = value ? text : 'too-large';
    if (key === this.#memoPendingKey || !takesPatch(PATCHES.pendingInMemo)) return;
    this.#memoPendingKey = key;
    upsertMemo({ pendingApprovals: value ?? { tooLarge: true } });
  }

  /** A sub-agent keeps its parent's view of what waits current, so decisions can be sent to the parent. */
  #tellParent(run: VisibleRun): void {
    const parent = workflowInfo().parent;
    if (!parent) return;
    // Any new audit entry (a decision taken or refused) sends a report, so a forwarded decision never goes unanswered.
    const auditSeq = run.audit.lastSeq;
    const pendingKey = run.pending.map((p) => `${p.subAgentWorkflowId ?? ''}/${p.id}`).join(',');
    const key =
      pendingKey === this.#parentReport.key.split('#')[0] && !takesPatch(PATCHES.reportEveryAnswer)
        ? this.#parentReport.key
        : `${pendingKey}#${auditSeq}`;
    if (key === this.#parentReport.key) return;
    const answered = run.audit.since(this.#parentReport.auditSeq).flatMap((e) => (e.id ? [e.id] : []));
    this.#parentReport = { seq: this.#parentReport.seq + 1, key, auditSeq };
    const report: ChildApprovals = {
      workflowId: workflowInfo().workflowId,
      seq: this.#parentReport.seq,
      pending: run.pending,
      tools: [...run.tools],
      answered,
    };
    getExternalWorkflowHandle(parent.workflowId)
      .signal(childApprovalsSignal, report)
      .catch((err) => log.warn('could not tell the parent run what waits', { error: String(err) }));
  }
}
