/**
 * What becomes of a model reply before the run takes it: the agent's afterModel hook judges it (accept, replace,
 * retry with a reason, stop), then breakpoints after the model and before its tools let a human continue, edit or
 * reject it. Each rewrite goes through the same intake as the model's own reply.
 */
import { isBlankText } from '../bounds/blank-text.js';
import type { ModelCallInfo, ReplyView } from '../hooks/hook-types.js';
import { BREAKPOINT_EDITS, type BreakpointKind } from '../schemas/agent-options.js';
import type { Resolution } from '../schemas/call-record.js';
import type { AgentRun } from './agent-run.js';
import { breakpointAt, pauseAt, type Paused } from './breakpoint-pause.js';
import { afterModel } from './model-hooks.js';
import { PATCHES, takesPatch } from './patches.js';
import type { Intake } from './reply-intake.js';
import { rewriteReply, writtenAt, writtenFrom } from './reply-rewrite.js';

export type Review =
  | { kind: 'take'; intake: Intake; rewritten: boolean }
  /** The reply goes back to the model, which reads the reason and answers again. */
  | { kind: 'sendBack'; reason: string }
  /** A human rejected the reply's calls before they ran: each is answered with the message. */
  | { kind: 'rejectCalls'; intake: Intake; message: string }
  | { kind: 'stop'; output: string };

export async function reviewReply(run: AgentRun, intake: Intake, call: ModelCallInfo): Promise<Review> {
  let current = intake;
  let rewritten = false;
  const use = run.snapshot.afterModel;
  if (use) {
    const verdict = await afterModel(use, {
      reply: viewOf(current),
      messages: [...run.transcript.messages],
      call,
      retries: run.modelCalls.retries,
    });
    if (verdict.action === 'retry') {
      run.modelCalls.judge({ action: 'retry', by: 'afterModel', reason: verdict.reason });
      return { kind: 'sendBack', reason: verdict.reason };
    }
    if (verdict.action === 'stop') {
      run.modelCalls.judge({ action: 'stop', by: 'afterModel', ...(verdict.output !== undefined && { reason: verdict.output }) });
      return { kind: 'stop', output: verdict.output ?? `The afterModel hook "${use.name}" stopped the run.` };
    }
    if (verdict.action === 'replace') {
      current = rewriteReply(run, current, verdict.reply);
      rewritten = true;
      run.modelCalls.judge({ action: 'replace', by: 'afterModel' });
    }
  }

  const after = breakpointAt(run, 'afterModel');
  if (after) {
    const paused = await pauseAt(run, 'afterModel', after, writtenFrom(current), afterModelText(run.step));
    const { resolution } = paused;
    const rejected = rejection(resolution, 'afterModel');
    if (rejected !== undefined) {
      run.modelCalls.judge({ action: 'reject', by: 'breakpoint', reason: rejected });
      return { kind: 'sendBack', reason: rejected };
    }
    if (resolution.kind === 'edit') {
      current = byPerson(current, rewriteReply(run, current, BREAKPOINT_EDITS.afterModel.parse(resolution.args)), paused);
      rewritten = true;
      run.modelCalls.judge({ action: 'edit', by: 'breakpoint' });
    }
  }

  const before =
    current.calls.length > 0
      ? breakpointAt(
          run,
          'beforeTools',
          current.calls.map((c) => c.name),
        )
      : undefined;
  if (before) {
    const names = [...new Set(current.calls.map((c) => c.name))].join(', ');
    const paused = await pauseAt(
      run,
      'beforeTools',
      before,
      { toolCalls: writtenFrom(current).toolCalls },
      beforeToolsText(run.step, names),
    );
    const { resolution } = paused;
    const rejected = rejection(resolution, 'beforeTools');
    if (rejected !== undefined) {
      run.modelCalls.judge({ action: 'reject', by: 'breakpoint', reason: rejected });
      return { kind: 'rejectCalls', intake: current, message: rejected };
    }
    if (resolution.kind === 'edit') {
      const { toolCalls } = BREAKPOINT_EDITS.beforeTools.parse(resolution.args);
      current = byPerson(current, rewriteReply(run, current, { content: current.message.content, toolCalls }), paused);
      rewritten = true;
      run.modelCalls.judge({ action: 'edit', by: 'breakpoint' });
    }
  }
  return { kind: 'take', intake: current, rewritten };
}

/**
 * The calls a person wrote at the breakpoint, marked as theirs (patch breakpointCallsWaitForPeople): before it, a
 * call written there ran as if the model had asked for it, under an `always` approval or its writer's own.
 */
function byPerson(before: Intake, after: Intake, { resolution, breakpoint }: Paused): Intake {
  if (!takesPatch(PATCHES.breakpointCallsWaitForPeople) || resolution.kind !== 'edit') return after;
  return writtenAt(before, after, {
    ...(resolution.approver && { approver: resolution.approver }),
    callId: breakpoint.id,
    toolName: breakpoint.toolName,
  });
}

function viewOf(intake: Intake): ReplyView {
  return { content: intake.message.content, toolCalls: intake.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.rawArgs })) };
}

/**
 * The message a rejection (or a deadline that rejects) sends on; undefined when the reply goes ahead. A reason that
 * says nothing gives way to the default (patch blankUserMessagesRefused): after the model it is the user turn the
 * model reads next.
 */
function rejection(resolution: Resolution, kind: BreakpointKind): string | undefined {
  if (resolution.kind === 'reject') {
    const blank = resolution.message !== undefined && takesPatch(PATCHES.blankUserMessagesRefused) && isBlankText(resolution.message);
    return (blank ? undefined : resolution.message) ?? `A human reviewer rejected this at a breakpoint (${kind}).`;
  }
  if (resolution.kind === 'timeout') return `No decision arrived in time at a breakpoint (${kind}); this was not used.`;
  return undefined;
}

function afterModelText(step: number): string {
  return (
    `Breakpoint after model call ${step}: continue with this reply, edit it (args.content, args.toolCalls), or reject it ` +
    'with a message the model reads before it answers again.'
  );
}

function beforeToolsText(step: number, names: string): string {
  return (
    `Breakpoint before the tools of model call ${step} (${names}): continue (gated calls still wait for their approvers), ` +
    'edit the calls (args.toolCalls), or reject them with a message the model reads as their result.'
  );
}
