/**
 * Keeps what the outside sees of a run current: search attributes, the memo (the prompt and the pending list), the
 * approval metrics, the Temporal UI's current details, and (for a sub-agent) its parent's mirror of what it waits
 * for. The run calls `publish` from one place, its `refresh()`; every upsert and report is made only when something
 * changed.
 */
import {
  CancellationScope,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  setCurrentDetails,
  sleep,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import { isClosed, type RunStatus } from '../contract/run-status.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { RunState } from '../schemas/run-state.js';
import { truncateChars, utf8Length } from '../bounds/truncate.js';
import { ApprovalMetrics } from './approval-metrics.js';
import type { AuditLog } from './audit-log.js';
import { currentDetails } from './current-details.js';
import { listedApproval } from './listed-approval.js';
import { LISTINGS_LAG_MS } from './listings-lag.js';
import { atNextActivation } from './next-activation.js';
import { PATCHES, takesPatch } from './patches.js';
import { reportedPending } from './report-size.js';
import { SearchAttributePublisher } from './search-attributes.js';
import { answersIn, childApprovalsSignal, type ChildApprovals } from './sub-agent-report.js';
import { SentReports } from './sent-reports.js';

/**
 * Who asked what, in the memo: written once as a run begins, and handed to each next run of its chain with
 * continue-as-new (continue-as-new.ts), which starts with no memo of its own unless given one. A continued run's
 * memo also says when its chain began (`startedAt`): visibility's start time is the current execution's, so lists
 * showed an approval that had waited for days as started minutes ago.
 */
export function askedMemo(prompt: string, requestedBy: string | undefined, startedAt?: string): Record<string, string> {
  return { prompt: truncateChars(prompt, 500), ...(requestedBy && { requestedBy }), ...(startedAt && { startedAt }) };
}

/** Bytes of pending approvals kept in the memo; beyond that, lists ask the run itself. */
const MEMO_PENDING_LIMIT = 16_000;

/** What visibility reads of a run. */
export interface VisibleRun {
  agent: string;
  status: RunStatus;
  step: number;
  /** The step this turn stops at: `maxSteps` applies per turn, and a session's steps count on across turns. */
  lastStep: number;
  /** What the loop is doing, in words, for the Temporal UI. */
  phase: string;
  pending: PendingApproval[];
  /** This run's own gated calls that wait: what the approval metrics count (not breakpoints, not sub-agents' calls). */
  gatedCalls: readonly PendingApproval[];
  tools: readonly string[];
  audit: AuditLog;
  /** Where the run's state last did not fit in the next run's input (carry-unfit.ts), if it did not. */
  carryUnfit?: RunState['carryUnfit'];
}

export class RunVisibility {
  /** The last report to the parent (its number survives continue-as-new: the parent ignores older ones). */
  #parentReport = { seq: 0, key: '', auditSeq: 0 };
  /** The run to report on once this activation's work is done (patch reportsCoalesced). */
  #reportDue: VisibleRun | undefined;
  /** What this run can vouch for when its parent asks whether a report came from it. */
  readonly sentReports = new SentReports();
  #memoPendingKey = '[]';
  /** This run checks decision tokens (it started with a trusted signer): its parent is told, with its calls. */
  #checksTokens = false;
  readonly #searchAttributes = new SearchAttributePublisher();
  readonly #metrics = new ApprovalMetrics();
  /** Listings held back while a decided call's tool starts (deferListings), and the work that goes out with them. */
  #deferred?: { wake?: CancellationScope; along: (() => void)[] };
  /** The run's local tool activities in flight (duringLocalActivity). */
  #localActivities = 0;

  /** @param republish the run's refresh, which publishes what the run is now (once deferred listings are due) */
  constructor(private readonly republish: () => void) {}

  /**
   * Lists (approval inboxes, the Temporal UI) show who asked what, and since when, without querying every run. Since
   * patch startInMemo the run writes each key it lists by, its start too, and removes a requester it did not prove:
   * what its starter put in the memo under those keys is not the run's word.
   */
  begin(prompt: string, requestedBy: string | undefined, checksTokens: boolean): void {
    this.#checksTokens = checksTokens;
    if (!takesPatch(PATCHES.startInMemo)) return upsertMemo(askedMemo(prompt, requestedBy));
    upsertMemo({
      requestedBy: undefined,
      pendingApprovals: undefined,
      ...askedMemo(prompt, requestedBy, workflowInfo().startTime.toISOString()),
    });
  }

  /** A resumed run goes on numbering its reports to the parent. */
  resume(parentReportSeq: number, auditSeq: number, checksTokens: boolean): void {
    this.#checksTokens = checksTokens;
    this.#parentReport = { seq: parentReportSeq, key: '', auditSeq };
  }

  /** The number of the last report to the parent, for the run this one continues as: a report still due goes first. */
  reportSeqToCarry(): number {
    this.#sendDueReport();
    return this.#parentReport.seq;
  }

  publish(run: VisibleRun): void {
    if (!this.#deferred || isClosed(run.status)) {
      this.#metrics.observe(run.gatedCalls, run.audit);
      this.#searchAttributes.publish({ agent: run.agent, status: run.status, pending: run.pending });
      this.#publishPendingMemo(run.pending);
    }
    setCurrentDetails(
      currentDetails(run.step, run.lastStep, run.pending.length ? 'waiting for approval' : run.phase, run.pending, run.carryUnfit),
    );
    this.#tellParent(run);
  }

  /**
   * The workflow task that applies a decision starts the approved tool with as little else as it can (bench/RESULTS.md,
   * section 1): what lists and dashboards read of the run (search attributes, memo, approval metrics) goes out in the
   * run's next step instead, with the cancellation of the decided call's timers (`withListings`). That step is the
   * tool's result, or at most LISTINGS_LAG_MS later (listings-lag.ts), whichever comes first: since patch
   * toolWakesListings the tool's activity wakes the run then (`listingsDueInMs`, the `listingsDue` signal), so the
   * task starts no timer; before it, a timer in the task did. Queries, the run's stream, the Temporal UI's current
   * details and the decision's own answer are exact at once; a list that still shows the call meanwhile gets "already
   * decided" for a second decision, as for any list that lags.
   */
  deferListings(): void {
    if (this.#deferred || this.#localActivities > 0) return;
    const lagMs = takesPatch(PATCHES.toolWakesListings) ? undefined : LISTINGS_LAG_MS;
    this.#deferred = { wake: lagMs === undefined ? undefined : this.#wakeAfter(lagMs), along: [] };
    atNextActivation(() => this.#release());
  }

  /**
   * For an activity the run starts while its listings are held back with no timer to release them: how long it may
   * run before it wakes the run (src/activities/listings-wake.ts). Undefined when nothing is held back.
   */
  get listingsDueInMs(): number | undefined {
    return this.#deferred && !this.#deferred.wake ? LISTINGS_LAG_MS : undefined;
  }

  /** Publishes listings held back now: the tool's wake-up came, or the call waits again instead of running. */
  releaseListings(): void {
    this.#release();
  }

  #wakeAfter(lagMs: number): CancellationScope {
    const wake = new CancellationScope();
    wake
      .run(() => sleep(lagMs, { summary: 'lists catch up with a decision' }))
      .then(
        () => this.#release(),
        (err) => {
          if (!isCancellation(err)) throw err;
        },
      );
    return wake;
  }

  /**
   * Runs a local activity: listings held back go out before it starts, and none are held back while it runs. A
   * local activity's result can reach a replay in another workflow task than it reached the live run (a query that
   * came while it ran cuts the task: activation-jobs.ts), so a release between its start and its result could see
   * another state on replay than live, and publish other commands. What the run publishes after the result moves with
   * the result, as every publish did before listings were deferred.
   */
  duringLocalActivity<T>(start: () => Promise<T>): Promise<T> {
    this.#release();
    const activity = start();
    this.#localActivities += 1;
    const done = () => {
      this.#localActivities -= 1;
    };
    // A side chain, and the activity's own promise handed back: the caller resumes as many microtasks after the
    // result as before, so runs of every patch set push their commands in the order they recorded.
    void activity.then(done, done);
    return activity;
  }

  /** Runs `work` when the deferred listings go out, or now when none are held back. */
  withListings(work: () => void): void {
    if (this.#deferred) this.#deferred.along.push(work);
    else work();
  }

  #release(): void {
    const deferred = this.#deferred;
    if (!deferred) return;
    this.#deferred = undefined;
    deferred.wake?.cancel();
    for (const work of deferred.along) work();
    this.republish();
  }

  /**
   * What waits, in the memo too: lists across runs read it from visibility instead of querying every run (a
   * sub-agent's calls are listed through its parent). Too large a list is left out; lists then ask the run.
   */
  #publishPendingMemo(waiting: PendingApproval[]): void {
    if (workflowInfo().parent) return;
    // As every list shows them (since patch previewsInMemo): a list read from the memo showed arguments over the list
    // budget whole, unmarked, where one that asked the run showed a marked preview.
    const pending = takesPatch(PATCHES.previewsInMemo) ? waiting.map(listedApproval) : waiting;
    const text = JSON.stringify(pending);
    const value = utf8Length(text) <= MEMO_PENDING_LIMIT ? pending : null;
    const key = value ? text : 'too-large';
    if (key === this.#memoPendingKey || !takesPatch(PATCHES.pendingInMemo)) return;
    this.#memoPendingKey = key;
    upsertMemo({ pendingApprovals: value ?? { tooLarge: true } });
  }

  /**
   * A sub-agent keeps its parent's view of what waits current, so decisions can be sent to the parent: since patch
   * reportsCoalesced, once for all that changed in an activation, when its work is done (a microtask after it). Each
   * change sent its own report, with every call that waits, and any answer is a change: 2,000 junk `decision` signals
   * taken in one activation made 2,000 signals to the parent in one workflow task, past the server's limits, and the
   * task failed on every retry.
   */
  #tellParent(run: VisibleRun): void {
    if (!workflowInfo().parent) return;
    if (!takesPatch(PATCHES.reportsCoalesced)) return this.#report(run);
    const queued = this.#reportDue !== undefined;
    this.#reportDue = run;
    if (!queued) void Promise.resolve().then(() => this.#sendDueReport());
  }

  #sendDueReport(): void {
    const run = this.#reportDue;
    this.#reportDue = undefined;
    if (run) this.#report(run);
  }

  #report(run: VisibleRun): void {
    const parent = workflowInfo().parent!;
    // Any new audit entry (a decision taken or refused) sends a report, so a forwarded decision never goes unanswered.
    const auditSeq = run.audit.lastSeq;
    const pendingKey = run.pending.map((p) => `${p.subAgentWorkflowId ?? ''}/${p.id}`).join(',');
    const key =
      pendingKey === this.#parentReport.key.split('#')[0] && !takesPatch(PATCHES.reportEveryAnswer)
        ? this.#parentReport.key
        : `${pendingKey}#${auditSeq}`;
    if (key === this.#parentReport.key) return;
    const since = run.audit.since(this.#parentReport.auditSeq);
    const answered = since.flatMap((e) => (e.id ? [e.id] : []));
    this.#parentReport = { seq: this.#parentReport.seq + 1, key, auditSeq };
    const pending = reportedPending(run.pending);
    if (pending.length < run.pending.length)
      log.warn('a report to the parent leaves out calls too large to carry', { left: run.pending.length - pending.length });
    const report: ChildApprovals = {
      workflowId: workflowInfo().workflowId,
      seq: this.#parentReport.seq,
      pending,
      tools: [...run.tools],
      answered,
      ...(takesPatch(PATCHES.forwardsHearBack) && { answers: answersIn(since) }),
      // Its own calls only: a sub-agent of its own tells it, and a token for that one's calls stops here.
      ...(this.#checksTokens && { tokensChecked: run.pending.filter((p) => !p.subAgentWorkflowId).map((p) => p.id) }),
    };
    if (takesPatch(PATCHES.reportsConfirmed)) this.sentReports.sent(report.seq, report);
    getExternalWorkflowHandle(parent.workflowId)
      .signal(childApprovalsSignal, report)
      .catch((err) => log.warn('could not tell the parent run what waits', { error: String(err) }));
  }
}
