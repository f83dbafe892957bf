/**
 * What queries answer, within a size budget: a run of any size can be viewed. Lists cut large arguments, and cut
 * every call shorter when there are too many for the answer (listed-pending.ts; the `pendingApproval` query has one
 * call whole); the transcript comes in pages.
 */
import { utf8Length } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import type { McpSkippedTool, McpTool } from '../schemas/mcp-tool.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import type { RunState, RunStateQueryOptions } from '../schemas/run-state.js';
import type { AgentRun } from './agent-run.js';
import { lastUnfitCarry } from './carry-unfit.js';
import { listedWithin } from './listed-pending.js';

/** Pending calls as lists show them: arguments over the list budget cut to a preview, all within one answer. */
export function listedPending(run: AgentRun): PendingApproval[] {
  return listedWithin(run.pending(), LIMITS.queryBytes).listed;
}

/** One pending call, whole (what an approver reviews before deciding). */
export function pendingCall(run: AgentRun, id: string): PendingApproval | undefined {
  return run.pending().find((p) => p.id === id);
}

export function runState(run: AgentRun, options: RunStateQueryOptions = {}): RunState {
  // Half the answer at most: the decisions and the transcript have their share too.
  const pending = listedWithin(run.pending(), LIMITS.queryBytes / 2);
  const decisions = pageOf(run.audit.since(options.decisionsFrom ?? 0), LIMITS.queryBytes / 4);
  const unfit = lastUnfitCarry();
  const fixed = {
    status: run.status,
    step: run.step,
    agent: run.agent,
    prompt: run.input?.prompt ?? '',
    // Who asked as the run took it: a start refused before it began claimed a requester it never proved.
    requestedBy: run.started ? run.input.requestedBy : undefined,
    pending: pending.listed,
    ...(pending.more && { morePending: true }),
    decisions: decisions.items,
    ...(decisions.more && { moreDecisions: true }),
    decisionsFrom: (decisions.items[0]?.seq ?? run.audit.lastSeq + 1) - 1,
    policyOutcomes: [...run.book.policyOutcomes],
    usage: run.usage,
    result: run.result,
    error: run.error,
    previousRunIds: [...run.previousRunIds],
    queuedMessages: run.session.length,
    ...(run.modelCalls.entries.length > 0 && { modelCalls: run.modelCalls.entries.slice(-100) }),
    streamOffset: run.events.offset,
    ...(unfit && { carryUnfit: unfit }),
  };
  // The transcript gets what the rest leaves of the budget (at least one message, so paging always advances).
  const rest = Math.max(64 * 1024, LIMITS.queryBytes - utf8Length(JSON.stringify(fixed)));
  const page = run.transcript.page(options.messagesFrom ?? 0, rest);
  return { ...fixed, messages: page.messages, messagesFrom: page.from, ...(page.more && { moreMessages: true }) };
}

/** The first items that fit in `budgetBytes` (at least one). */
function pageOf<T>(items: T[], budgetBytes: number): { items: T[]; more: boolean } {
  let bytes = 0;
  for (let i = 0; i < items.length; i++) {
    bytes += utf8Length(JSON.stringify(items[i]));
    if (i > 0 && bytes > budgetBytes) return { items: items.slice(0, i), more: true };
  }
  return { items, more: false };
}

/** The `tools` query: the run's tools, and its MCP tools as recorded when it started (none before it starts). */
export function runTools(run: AgentRun): { tools: string[]; mcpTools: McpTool[]; mcpSkipped: McpSkippedTool[] } {
  if (!run.started) return { tools: [], mcpTools: [], mcpSkipped: [] };
  return { tools: run.snapshot.tools, mcpTools: run.snapshot.mcpTools ?? [], mcpSkipped: run.snapshot.mcpSkipped ?? [] };
}
