import { ApprovalPolicy, type ApprovalPolicyOverride } from '../schemas/approval-policy.js';

/** The run's effective policy: the agent's, with the run's overrides on top (a listed tool's entry is replaced). */
export function mergePolicy(base: ApprovalPolicy, override: ApprovalPolicyOverride | undefined): ApprovalPolicy {
  if (!override) return base;
  const { tools, ...rest } = override;
  return ApprovalPolicy.parse({ ...base, ...rest, tools: { ...base.tools, ...tools } });
}
