/** For the decision planner: standing decisions one input may not give together. Pure. */
import { DecisionRefusedError } from '../errors.js';
import type { PlannedDecision } from './decision-context.js';

/**
 * `always approve` and `always reject` for one tool of one run in one input: which stands would depend on the order
 * of the list (the last one did), so the input is refused as ambiguous (since patch set 20). Calls of two sub-agents
 * are two runs' calls, each with its own standing decisions.
 */
export function opposedStanding(decisions: readonly PlannedDecision[]): DecisionRefusedError | undefined {
  const standing = new Map<string, string>();
  for (const { decision, call } of decisions) {
    if (!decision.always) continue;
    const key = JSON.stringify([call.subAgentWorkflowId ?? '', call.toolName]);
    const earlier = standing.get(key);
    if (earlier !== undefined && earlier !== decision.type) {
      return new DecisionRefusedError(
        'decision_not_allowed',
        `This input decides ${call.toolName} both "always approve" and "always reject": send one standing decision for a tool.`,
      );
    }
    standing.set(key, decision.type);
  }
  return undefined;
}
