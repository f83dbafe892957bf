/**
 * The `interrupt` and `interruptions` queries: what waits, as LangChain's and the OpenAI Agents SDK's clients read
 * it. Built from the listed pending calls (arguments over the list budget cut), so each answer stays within the
 * queries' budget as `pendingApprovals` does.
 */
import type { PendingApproval } from '../schemas/pending-approval.js';
import { LANGCHAIN_DECISION_TYPES, type LangChainInterrupt, type ToolApprovalItem } from '../schemas/seed-views.js';
import { oldestBatch } from '../contract/pending-batch.js';

type LangChainDecision = (typeof LANGCHAIN_DECISION_TYPES)[number];
const isLangChainDecision = (type: string): type is LangChainDecision => (LANGCHAIN_DECISION_TYPES as readonly string[]).includes(type);

/**
 * The batch a LangChain resume (`{decisions: [...]}` without ids) decides, in the order its decisions apply; null
 * when nothing waits.
 */
export function langChainInterrupt(listed: readonly PendingApproval[]): LangChainInterrupt | null {
  const batch = oldestBatch(listed);
  if (batch.length === 0) return null;
  return {
    action_requests: batch.map((p) => ({
      name: p.toolName,
      args: p.args,
      description: p.description,
      id: p.id,
      ...(p.argsTruncated && { args_truncated: true }),
    })),
    review_configs: batch.map((p) => ({ action_name: p.toolName, allowed_decisions: p.allowedDecisions.filter(isLangChainDecision) })),
  };
}

/** Every pending call as an OpenAI-style interruption; `agent` names the run's agent when the call does not. */
export function toolApprovalItems(listed: readonly PendingApproval[], runAgent: string): ToolApprovalItem[] {
  return listed.map((p) => ({
    type: 'tool_approval_item',
    agent: { name: p.agent ?? runAgent },
    rawItem: { type: 'function_call', callId: p.id, name: p.toolName, arguments: JSON.stringify(p.args), status: 'in_progress' },
    ...(p.argsTruncated && { argumentsTruncated: true }),
  }));
}
