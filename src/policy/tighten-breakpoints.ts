/**
 * A run may set its own breakpoints at start (`interrupt`), held to its agent's as its own policy is (tighten-only.ts):
 * where the agent pauses, the run may not switch the pause off, pause before fewer tools, let more or other people
 * decide, or continue on timeout where the agent's breakpoint would not. It may add pauses the agent lacks, narrow a
 * bare approver entry to one kind, and change timeouts. Unless the agent says `runOverrides: 'any'`, a run that
 * would loosen a breakpoint is refused at start: by the API and the CLI, and by the run itself. Pure.
 */
import { InvalidRunInputError } from '../errors.js';
import { BREAKPOINTS, type BreakpointSetting, type Interrupts } from '../schemas/agent-options.js';
import type { ApprovalPolicy, OnTimeout } from '../schemas/approval-policy.js';
import { approversLoosenings } from './tighten-only.js';

/** Where `onTimeout` is not said: the policy's, the agent's for its breakpoints and the run's for the run's. */
export interface TimeoutDefaults {
  agent: OnTimeout;
  run: OnTimeout;
}

/** Every way the run's breakpoints would loosen the agent's, in words; empty when they only tighten. */
export function breakpointLoosenings(
  agent: Interrupts | undefined,
  run: Interrupts | undefined,
  onTimeout: TimeoutDefaults,
  typedApprovers: boolean,
): string[] {
  return BREAKPOINTS.flatMap((kind) => {
    const base = agent?.[kind];
    const own = run?.[kind];
    if (!base || own === undefined) return [];
    const path = `interrupt.${kind}`;
    if (own === false) return [`${path}: the agent pauses here; a run may not switch it off`];
    return settingLoosenings(path, base === true ? {} : base, own === true ? {} : own, onTimeout, typedApprovers);
  });
}

type Setting = Exclude<BreakpointSetting, boolean>;

function settingLoosenings(path: string, a: Setting, r: Setting, onTimeout: TimeoutDefaults, typedApprovers: boolean): string[] {
  const problems: string[] = [];
  // No `tools` pauses before every tool.
  if (a.tools ? r.tools && a.tools.some((t) => !r.tools!.includes(t)) : r.tools) {
    const missing = a.tools ? a.tools.filter((t) => !r.tools!.includes(t)) : ['every other tool'];
    problems.push(`${path}.tools: the agent pauses before ${missing.join(', ')} too`);
  }
  problems.push(...approversLoosenings(path, a.approvers, r.approvers, typedApprovers));
  if ((r.onTimeout ?? onTimeout.run) === 'approve' && (a.onTimeout ?? onTimeout.agent) !== 'approve') {
    problems.push(`${path}.onTimeout: a run may not continue past a pause nobody decided`);
  }
  return problems;
}

/**
 * Refuses a run whose own breakpoints would loosen its agent's (InvalidRunInputError, naming each loosening), unless
 * the agent takes any: where a run is asked for (check-run-start.ts) and in the run itself (agent-workflow.ts).
 * @param runOnTimeout the run's effective policy's `onTimeout`, which a breakpoint of the run's that says none takes
 */
export function checkRunBreakpoints(
  agent: { name: string; policy: ApprovalPolicy; interrupt?: Interrupts },
  interrupt: Interrupts | undefined,
  runOnTimeout: OnTimeout,
  typedApprovers: boolean,
): void {
  if (!interrupt || agent.policy.runOverrides !== 'tighten') return;
  const problems = breakpointLoosenings(agent.interrupt, interrupt, { agent: agent.policy.onTimeout, run: runOnTimeout }, typedApprovers);
  if (!problems.length) return;
  throw new InvalidRunInputError(
    `interrupt may only tighten agent "${agent.name}"'s breakpoints (its runOverrides is 'tighten'):\n- ${problems.join('\n- ')}`,
  );
}
