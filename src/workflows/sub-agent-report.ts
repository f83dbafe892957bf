/**
 * Internal to runs: a sub-agent run tells its parent what it waits for (not part of the wire contract). Anyone can
 * send a signal, and a signal does not say who sent it, so the parent takes a report only for a sub-agent it
 * started and still waits for (SubAgentMirror), and only calls owned within that sub-agent's tree: a forged report
 * cannot make the parent pass decisions to another run. What a report shows is checked where the decision lands:
 * the parent passes on the tool and the arguments the approver saw (run-decisions.ts), and the owner refuses a
 * decision for anything else.
 */
import { defineSignal } from '@temporalio/workflow';
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';
import { PendingApproval } from '../schemas/pending-approval.js';
import type { AuditEntry } from '../schemas/audit-entry.js';
import { truncateChars } from '../bounds/truncate.js';

/**
 * A report's answers are few and short whatever came in: anyone can signal a sub-agent, and a flood of refused input
 * must neither push the report past what a parent takes (it would refuse it whole) nor past Temporal's payload limit.
 * The newest answer for each call and approver, the newest first kept.
 */
const MAX_ANSWERS = 200;
const ANSWER_MESSAGE_CHARS = 1000;

/**
 * What a sub-agent did with a decision it received: took it, or refused it (`refusal`: its code and words). Named by
 * the approver it came in the name of, as the sub-agent recorded it: the parent matches it to the decision it passed
 * on, never to another's for the same call.
 */
const ChildAnswer = builtOnce('workflows/sub-agent-report.ChildAnswer', () =>
  z.object({
    id: z.string().max(1000),
    approver: z.string().max(200).optional(),
    refusal: z.object({ code: z.string().max(100), message: z.string().max(ANSWER_MESSAGE_CHARS) }).optional(),
  }),
);
export type ChildAnswer = z.infer<typeof ChildAnswer>;

export const ChildApprovals = builtOnce('workflows/sub-agent-report.ChildApprovals', () =>
  z.object({
    workflowId: z.string().min(1).max(1000),
    seq: z.number().int().nonnegative(),
    pending: z.array(z.preprocess(renamedOwner, PendingApproval)).max(1000),
    /** The sub-agent's tools: what an edit of its calls may turn into. */
    tools: z.array(z.string()).max(500),
    /** Calls it received a decision for (taken or refused) since its previous report. */
    answered: z.array(z.string()).max(10_000).optional(),
    /**
     * What it did with each decision of `answered`: a parent that passed one on notes what became of it (patch
     * forwardsHearBack). A decision it passed on to a sub-agent of its own is answered once that one answered it.
     */
    answers: z.array(ChildAnswer).max(MAX_ANSWERS).optional(),
    /**
     * Calls of `pending` whose run checks decision tokens: a parent that checks none passes a token for them on with
     * the decision, rather than refusing it (patch tokensPassToOwners).
     */
    tokensChecked: z.array(z.string()).max(1000).optional(),
  }),
);
export type ChildApprovals = z.infer<typeof ChildApprovals>;

/** Reports from sub-agents on code from before the rename named a call's owner `workflowId`. */
function renamedOwner(value: unknown): unknown {
  const item = value as { workflowId?: unknown; subAgentWorkflowId?: unknown } | null;
  if (!item || typeof item !== 'object' || item.workflowId === undefined || item.subAgentWorkflowId !== undefined) return value;
  const { workflowId, ...rest } = item;
  return { ...rest, subAgentWorkflowId: workflowId };
}

export const childApprovalsSignal = defineSignal<[ChildApprovals]>('hitl.childApprovals');

/**
 * The report, if it is well-formed, names a sub-agent of the run `parentWorkflowId`, and (`ownedWithin`) lists only
 * calls that sub-agent or one of its own sub-agents owns.
 */
export function acceptedReport(raw: unknown, parentWorkflowId: string, ownedWithin: boolean): ChildApprovals | undefined {
  const parsed = ChildApprovals.safeParse(raw);
  if (!parsed.success || !parsed.data.workflowId.startsWith(`${parentWorkflowId}/`)) return undefined;
  const { workflowId, pending } = parsed.data;
  const within = (owner: string | undefined) => owner === undefined || owner === workflowId || owner.startsWith(`${workflowId}/`);
  return !ownedWithin || pending.every((p) => within(p.subAgentWorkflowId)) ? parsed.data : undefined;
}

/**
 * What a parent that passed a decision on is told of it, from the sub-agent's audit entries since its last report:
 * taken (applied here, or taken by a sub-agent of this run it was passed on to), or refused (here, by such a
 * sub-agent, or never delivered to it: its run had closed). A decision this run passed on and has not heard of is not
 * answered yet.
 */
export function answersIn(entries: readonly AuditEntry[]): ChildAnswer[] {
  const newest = new Map<string, ChildAnswer>();
  for (const e of [...entries].reverse()) {
    const answer = answerOf(e);
    const key = answer && JSON.stringify([answer.id, answer.approver ?? null]);
    if (key && !newest.has(key)) newest.set(key, answer);
    if (newest.size >= MAX_ANSWERS) break;
  }
  return [...newest.values()].reverse();
}

function answerOf(e: AuditEntry): ChildAnswer | undefined {
  if (e.id === undefined) return undefined;
  const who = { id: e.id.slice(0, 1000), ...(e.approver !== undefined && { approver: e.approver.slice(0, 200) }) };
  if (e.outcome === 'applied' || e.event === 'forward_taken') return who;
  const refusal =
    e.outcome === 'refused' || e.event === 'forward_refused'
      ? e.refusal
      : e.event === 'forward_lost'
        ? { code: 'run_closed', message: e.message ?? 'the decision was not taken' }
        : undefined;
  if (!refusal) return undefined;
  return { ...who, refusal: { code: refusal.code.slice(0, 100), message: truncateChars(refusal.message, ANSWER_MESSAGE_CHARS) } };
}
