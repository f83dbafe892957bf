/** Shows a gated call to approvers: what they see, who may decide it, and its deadline counted from now. */
import { patched } from '@temporalio/workflow';
import { argsHash } from '../policy/args-hash.js';
import type { CallRecord } from '../schemas/call-record.js';
import type { AgentRun } from './agent-run.js';
import { PATCHES } from './patches.js';
import { workflowNow } from './workflow-clock.js';

export function announce(run: AgentRun, record: CallRecord, description: string, ownIds: boolean, at = workflowNow()): void {
  const gate = record.gate!;
  const args = record.proposal?.args ?? record.args!;
  // The requester under four eyes, and whoever proposed this call by an edit: neither approves it.
  const excluded = [
    ...(run.policy.fourEyes && run.input.requestedBy ? [run.input.requestedBy] : []),
    ...(record.proposal?.approver ? [record.proposal.approver] : []),
  ];
  run.book.announce(record, {
    toolName: record.proposal?.toolName ?? record.toolName,
    args,
    argsHash: argsHash(args),
    description,
    allowedDecisions: gate.allowedDecisions,
    requestedAt: new Date(at).toISOString(),
    deadline: new Date(at + gate.timeoutMs).toISOString(),
    step: record.step,
    ...(gate.approvers && { approvers: gate.approvers }),
    ...(excluded.length > 0 && { excludedApprovers: excluded }),
    onTimeout: gate.onTimeout,
    rule: record.rule,
    ...(ownIds ? { checks: 3 } : patched(PATCHES.decisionChecksV2) && { checks: 2 }),
    ...(record.proposal && { proposedBy: { approver: record.proposal.approver, callId: record.id, toolName: record.toolName } }),
    ...(ownIds && { agent: run.agent }),
  });
}
