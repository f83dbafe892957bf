/**
 * What a run tells watchers as it moves: one event per transition on its Workflow Stream's `events` topic
 * (src/schemas/run-event.ts). Publishing only appends to the stream's log in the run's memory (no command, no
 * history): watchers read it with the stream's poll update, or its query once the run has closed. The log, and so
 * every event, goes across continue-as-new in the carried state and is rebuilt by replay after a worker crash.
 */
import type { WorkflowStreamState } from '@temporalio/workflow-streams/workflow';
import { truncateBytes } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import { isClosed, RunOutcome, type RunStatus } from '../contract/run-status.js';
import type { AuditEntry } from '../schemas/audit-entry.js';
import type { CallRecord } from '../schemas/call-record.js';
import type { AssistantMessage } from '../schemas/chat-message.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { RunEvent } from '../schemas/run-event.js';
import type { AgentResult } from '../schemas/run-state.js';
import { PATCHES, takesPatch } from './patches.js';
import { openRunStream, type RunStream } from './run-stream.js';
import { listedApproval } from './listed-approval.js';

const text = (value: string) => truncateBytes(value, LIMITS.eventTextBytes);

/**
 * Opens the run's stream, with the log the previous run carried if any (the workflow says whether the carry may be
 * taken: carry-origin.ts); call first thing in the workflow. A carried state the library could not load is dropped
 * by openRunStream.
 */
export function openRunEvents(carried: WorkflowStreamState | undefined): RunEvents {
  return new RunEvents(
    openRunStream(carried, takesPatch(PATCHES.idlePollsReleased) ? {} : { idlePollMs: Infinity }),
    takesPatch(PATCHES.streamHandOff),
  );
}

export class RunEvents {
  #status?: RunStatus;

  /**
   * @param handsOff continue-as-new lets watchers' waiting polls go instead of waiting for them (runs from before
   * that change keep waiting, as their histories did)
   */
  constructor(
    private readonly stream: RunStream,
    readonly handsOff: boolean,
  ) {}

  /** The offset the next item of the stream will get (the run state gives it, so clients follow from there). */
  get offset(): number {
    return this.stream.offset();
  }

  stepStarted(step: number): void {
    this.publish({ type: 'step_started', step });
  }

  modelReplied(step: number, message: AssistantMessage): void {
    this.publish({ type: 'model_replied', step, content: message.content === null ? null : text(message.content) });
  }

  /** The step's calls, as the model asked for them and as the policy classified them. */
  callsProposed(records: readonly CallRecord[]): void {
    for (const r of records) {
      this.publish({ type: 'tool_call_proposed', step: r.step, id: r.id, toolName: r.toolName, arguments: argsPreview(r.rawArgs) });
    }
    for (const r of records) if (r.gate) this.publish({ type: 'tool_call_gated', id: r.id, toolName: r.toolName, rule: r.rule });
  }

  approvalRequested(approval: PendingApproval): void {
    this.publish({ type: 'approval_requested', approval: listedApproval(approval) });
  }

  /** An applied decision, or the deadline's. */
  decided(entry: AuditEntry): void {
    this.publish({ type: entry.via === 'timeout' ? 'approval_timed_out' : 'approval_decided', entry });
  }

  refused(entry: AuditEntry): void {
    this.publish({ type: 'decision_refused', entry });
  }

  noted(entry: AuditEntry): void {
    this.publish({ type: 'approval_noted', entry });
  }

  callStarted(id: string, toolName: string): void {
    this.publish({ type: 'tool_call_started', id, toolName });
  }

  callFinished(id: string, content: string): void {
    this.publish({ type: 'tool_call_finished', id, content: text(content) });
  }

  /** This run continued its chain as new: its history starts over here. */
  continued(runId: string, step: number): void {
    this.publish({ type: 'run_continued', runId, step });
  }

  messageQueued(content: string, queued: number): void {
    this.publish({ type: 'message_queued', content: text(content), queued });
  }

  /** Called with every refresh: a changed status, and the end of the run, become events. */
  observe(status: RunStatus, result: AgentResult | undefined, error: string | undefined): void {
    if (status === this.#status) return;
    this.#status = status;
    if (!isClosed(status)) return this.publish({ type: 'status_changed', status });
    if (result && RunOutcome.safeParse(status).success) {
      const { output, steps, usage, ended } = result;
      return this.publish({
        type: 'run_finished',
        status: result.status,
        output: text(output),
        steps,
        usage,
        ...(ended && { ended: { ...ended, ...(ended.reason !== undefined && { reason: text(ended.reason) }) } }),
      });
    }
    if (status === 'Failed' || status === 'Canceled') {
      this.publish({ type: 'run_failed', status, ...(error !== undefined && { error: text(error) }) });
    }
  }

  /** Before continue-as-new: waiting polls return (their watchers retry on the next run), new ones are refused. */
  detachPollers(): void {
    this.stream.detachPollers();
  }

  reattachPollers(): void {
    this.stream.reattachPollers();
  }

  /** The stream's state for the next run. */
  carry(): WorkflowStreamState {
    return this.stream.carry();
  }

  private publish(event: RunEvent): void {
    this.stream.events.publish(event);
  }
}

function argsPreview(raw: string): string {
  return truncateBytes(raw, LIMITS.auditArgumentsBytes);
}
