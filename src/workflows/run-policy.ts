/**
 * The run's effective approval policy: the agent's, with the run's own (`approval` at start) on top. Unless the
 * agent says `runOverrides: 'any'`, a run's policy that would loosen the agent's is refused and the run fails with
 * a clear error: a caller cannot start a run that lets through what the agent gates.
 */
import { InvalidRunInputError } from '../errors.js';
import { mergePolicy } from '../policy/merge-policy.js';
import { loosenings } from '../policy/tighten-only.js';
import type { ApprovalPolicy, ApprovalPolicyOverride } from '../schemas/approval-policy.js';

export function runPolicy(agentName: string, agent: ApprovalPolicy, override: ApprovalPolicyOverride | undefined): ApprovalPolicy {
  // Gated on data rather than a patch: a run recorded before the limit existed has no `runOverrides` in its agent's
  // snapshot, took any policy it was given, and replays that way.
  if (override && agent.runOverrides === 'tighten') {
    const problems = loosenings(agent, override);
    if (problems.length) {
      throw new InvalidRunInputError(
        `approval may only tighten agent "${agentName}"'s policy (its runOverrides is 'tighten'):\n- ${problems.join('\n- ')}`,
      );
    }
  }
  return mergePolicy(agent, override);
}
