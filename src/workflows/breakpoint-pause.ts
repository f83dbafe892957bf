/**
 * Breakpoints (LangGraph's `interrupt_before` / `interrupt_after`): the run pauses before the model, after it, or
 * before its tools run, and waits like a gated call, under the same timer, for approve (continue), edit or reject.
 * Where a run pauses comes from the run's start input (`interrupt`), else the agent's.
 */
import { breakpointsAsApplied, type BreakpointKind, type BreakpointSetting } from '../schemas/agent-options.js';
import type { Resolution } from '../schemas/call-record.js';
import type { ChatMessage } from '../schemas/chat-message.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import { durationToMs } from '../schemas/duration.js';
import type { AgentRun } from './agent-run.js';
import { announce } from './announce.js';
import { awaitDecision } from './approval-gate.js';
import { PATCHES, type PatchId } from './patches.js';

type Setting = Exclude<BreakpointSetting, boolean>;

/** The breakpoint's settings when the run pauses there (for beforeTools, only if the reply calls a listed tool). */
export function breakpointAt(run: AgentRun, kind: BreakpointKind, toolNames: readonly string[] = []): Setting | undefined {
  const setting = configured(run, kind);
  if (!setting) return undefined;
  const object = setting === true ? {} : setting;
  if (kind === 'beforeTools' && object.tools && !toolNames.some((name) => object.tools!.includes(name))) return undefined;
  return object;
}

function configured(run: AgentRun, kind: BreakpointKind): BreakpointSetting | undefined {
  return breakpointsAsApplied(run.input.interrupt, run.snapshot.interrupt)[kind];
}

/**
 * The patches under which a run starts over before a model call it may pause around (continue-as-new.ts): one for a
 * pause before the model, one for a pause at its reply. Which tools the reply calls is not known yet, so a
 * beforeTools breakpoint counts whatever tools it lists.
 */
export function startOverPatches(run: AgentRun): PatchId[] {
  const replyMayPause = configured(run, 'afterModel') || configured(run, 'beforeTools');
  return [
    ...(configured(run, 'beforeModel') ? [PATCHES.continueBeforeBreakpoints] : []),
    ...(replyMayPause ? [PATCHES.continueBeforeReplyBreakpoints] : []),
  ];
}

/** How a breakpoint was decided, and the breakpoint as approvers saw it (its id `break-<n>` and `breakpoint:<where>`). */
export interface Paused {
  resolution: Resolution;
  breakpoint: { id: string; toolName: string };
}

/** Announces the breakpoint to approvers and waits for its decision (or its deadline's `onTimeout`). */
export async function pauseAt(run: AgentRun, kind: BreakpointKind, setting: Setting, args: ToolArgs, description: string): Promise<Paused> {
  const record = run.breakpoints.open(kind, run.step, args, {
    allowedDecisions: ['approve', 'edit', 'reject'],
    description,
    timeoutMs: durationToMs(setting.timeout ?? run.policy.timeout),
    onTimeout: setting.onTimeout ?? run.policy.onTimeout,
    ...(setting.approvers && { approvers: setting.approvers }),
    remindersMs: [],
  });
  announce(run, record, description, true);
  run.breakpoints.mark(record);
  run.notifications.send('approval.requested', record.pending!);
  run.refresh(`paused at a breakpoint (${kind})`);
  try {
    return { resolution: await awaitDecision(run, record), breakpoint: { id: record.id, toolName: record.toolName } };
  } finally {
    run.breakpoints.close();
    run.refresh('running the agent');
  }
}

/**
 * Before the model: a human may continue, edit the messages the model has not seen yet, or reject, which stops the
 * run with their message. Returns the output to stop with, if it stops.
 */
export async function breakBeforeModel(run: AgentRun): Promise<string | undefined> {
  const setting = breakpointAt(run, 'beforeModel');
  if (!setting) return undefined;
  const tail = run.transcript.messages.slice(run.transcript.tailStart);
  const { resolution } = await pauseAt(
    run,
    'beforeModel',
    setting,
    { messages: tail },
    `Breakpoint before model call ${run.step + 1}: continue, edit the messages the model has not seen yet (args.messages: ` +
      'user messages, and the answers to its calls, which keep their tool_call_id), or reject to stop the run.',
  );
  switch (resolution.kind) {
    case 'edit':
      run.transcript.replaceTail(resolution.args.messages as ChatMessage[]);
      return undefined;
    case 'reject':
      return resolution.message ?? `Stopped by ${resolution.approver ?? 'a human'} at a breakpoint before the model.`;
    case 'timeout':
      return 'No decision arrived at the breakpoint before the model in time; the run stopped.';
    default:
      return undefined;
  }
}
