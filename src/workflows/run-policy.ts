/**
 * The run's effective approval policy: the agent's, with the run's own (`approval` at start) on top. Unless the
 * agent says `runOverrides: 'any'`, a run's policy that would loosen the agent's is refused and the run fails with
 * a clear error: a caller cannot start a run that lets through what the agent gates.
 */
import { mergePolicy } from '../policy/merge-policy.js';
import { looseningRefusal, loosenings } from '../policy/tighten-only.js';
import { reviewerMayApprove } from '../reviewers/reviewer-may-approve.js';
import type { ApprovalPolicy, ApprovalPolicyOverride } from '../schemas/approval-policy.js';

/**
 * @param typedApprovers the run may narrow bare approver entries by kind (tighten-only.ts): the caller passes
 *   `takesPatch`, which reads the patch set the run took in its first activation and never asks `patched()` here.
 * @param rejectOnlyReviewers the run may add a reviewer that can only reject or escalate (its rule says so for its
 *   options, reviewer-may-approve.ts), which takes no consent away: runs since patch set 29. Before, every reviewer a
 *   run added counted as one that may approve, and such a run failed at its start.
 */
export function runPolicy(
  agentName: string,
  agent: ApprovalPolicy,
  override: ApprovalPolicyOverride | undefined,
  typedApprovers: boolean,
  rejectOnlyReviewers = false,
): ApprovalPolicy {
  // Gated on data rather than a patch: a run recorded before the limit existed has no `runOverrides` in its agent's
  // snapshot, took any policy it was given, and replays that way. Judging keys through patterns came in the same
  // release as the limit, so no recorded run checked them the narrower way. (A patch asked here, right after the
  // agent's resolution, made queries of the decision-fuzz suite's runs fail to replay: src/workflows/patches.ts says why.
  // Patch sets, asked once at the start, came later: see `typedApprovers`.)
  if (override && agent.runOverrides === 'tighten') {
    const problems = loosenings(agent, override, { typedApprovers, ...(rejectOnlyReviewers && { reviewerMayApprove }) });
    if (problems.length) throw looseningRefusal(agentName, problems);
  }
  return mergePolicy(agent, override);
}
