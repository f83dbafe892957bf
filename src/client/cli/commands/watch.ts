/**
 * `hitl watch RUN`: follows a run on its stream until it ends. The model's text is printed as it is written; every
 * other event is one line. With --json, one line per stream item (`{offset, topic, event | token}`).
 */
import type { RunEvent, RunStreamItem } from '../../../schemas/run-event.js';
import { followableRun } from '../../followed-run.js';
import type { TokenEvent } from '../../../schemas/token-event.js';
import { UsageError } from '../errors.js';
import { jsonText, outcomeText, style } from '../output.js';
import { terminalText as t } from '../terminal-text.js';
import type { RegisterCommand } from './context.js';

/** The lines of text from the run after its first are indented under it: they cannot pass for lines of events. */
const INDENT = '  ';

/** One line per event (text the model or a tool wrote keeps its lines); every text from the run goes through `t`. */
export function describeEvent(event: RunEvent): string {
  const text = (value: string) => t(value, { multiline: true, indent: INDENT });
  switch (event.type) {
    case 'status_changed':
      return `status ${style.cyan(t(event.status))}`;
    case 'step_started':
      return style.bold(`step ${event.step}`);
    case 'model_replied':
      return event.content ? `model: ${text(event.content)}` : '';
    case 'tool_call_proposed':
      return `model → ${t(event.toolName)}(${t(event.arguments)}) [${t(event.id)}]`;
    case 'tool_call_gated':
      return style.dim(`gated: ${t(event.toolName)} [${t(event.id)}] (${t(event.rule)})`);
    case 'approval_requested':
      return style.yellow(
        `waiting for approval: ${t(event.approval.toolName)} [${t(event.approval.id)}] (${event.approval.allowedDecisions.join(', ')})`,
      );
    case 'approval_decided': {
      const { entry } = event;
      const who = entry.approver ? ` by ${t(entry.approver)}` : entry.decidedBy ? ` by ${t(entry.decidedBy)}` : '';
      const quorum = entry.quorum ? ` (${entry.quorum.approvals} of ${entry.quorum.required} approvals)` : '';
      // Passed on to the sub-agent that owns the call: what it did with it is noted next (`approval_noted`).
      const verb = entry.outcome === 'forwarded' ? `passed on to ${t(entry.forwardedTo)}` : 'decided';
      return `${verb}: ${entry.type} ${t(entry.toolName)} [${t(entry.id)}]${who} via ${entry.via}${quorum}`;
    }
    case 'approval_noted':
      return style.yellow(`${event.entry.event?.replaceAll('_', ' ')} [${t(event.entry.id)}]: ${t(event.entry.message)}`);
    case 'approval_timed_out':
      return style.yellow(`timed out: ${t(event.entry.toolName)} [${t(event.entry.id)}] (${t(event.entry.message) ?? event.entry.type})`);
    case 'decision_refused':
      return style.red(`refused decision: ${t(event.entry.refusal?.message)}`);
    case 'tool_call_started':
      return style.dim(`running ${t(event.toolName)} [${t(event.id)}]`);
    case 'tool_call_finished':
      return `tool [${t(event.id)}]: ${text(event.content)}`;
    case 'message_queued':
      return `user: ${text(event.content)}`;
    case 'run_continued':
      return style.dim(`continued as new at step ${event.step}: run ${t(event.runId)}`);
    case 'run_finished':
      return style.bold(`${outcomeText(event.status, event.ended)}: ${text(event.output)}`);
    case 'run_failed':
      return style.bold(`${event.status}${event.error ? `: ${text(event.error)}` : ''}`);
  }
}

/**
 * Text as it streams, then the other events. A retried model call starts its text again: what the failed attempt
 * wrote is marked as dropped. When a step's reply arrives, its text was already printed (unless it was not streamed).
 */
export class WatchPrinter {
  /**
   * The step and attempt whose text is being printed, whether the line is still open, and whether the text printed
   * so far ended in a newline not yet written: it is written, indented, only if more text follows, so a reply that
   * ends in a newline leaves no indented blank line behind.
   */
  private text?: { step: number; attempt: number; open: boolean; newlineHeld?: boolean };

  constructor(private readonly write: (chunk: string) => void) {}

  print(item: RunStreamItem): void {
    if (item.topic === 'tokens') return this.token(item.token);
    const event = item.event;
    if (event.type === 'model_replied' && this.text?.step === event.step) {
      this.endLine();
      return;
    }
    this.endLine();
    const line = describeEvent(event);
    if (line) this.write(`${line}\n`);
  }

  private token(token: TokenEvent): void {
    const current = this.text;
    if (current?.step === token.step && token.attempt < current.attempt) return;
    if (current?.step !== token.step || current.attempt !== token.attempt) {
      this.endLine();
      if (current?.step === token.step) this.write(`${style.dim(`(the model call was retried: attempt ${token.attempt} starts over)`)}\n`);
      this.write('model: ');
      this.text = { step: token.step, attempt: token.attempt, open: true };
    } else if (!current.open) {
      this.write('model: ');
      current.open = true;
    }
    const open = this.text!;
    let text = `${open.newlineHeld ? '\n' : ''}${t(token.text, { multiline: true })}`;
    open.newlineHeld = text.endsWith('\n');
    if (open.newlineHeld) text = text.slice(0, -1);
    this.write(text.replaceAll('\n', `\n${INDENT}`));
  }

  /** The run has ended: close the text's line if it is open. */
  finish(): void {
    this.endLine();
  }

  private endLine(): void {
    if (!this.text?.open) return;
    this.write('\n');
    this.text.open = false;
    this.text.newlineHeld = false;
  }
}

export const registerWatchCommand: RegisterCommand = (program, ctx) => {
  program
    .command('watch')
    .description("follow a run as it happens, the model's text as it is written, until the run ends")
    .argument('<workflow-id>', 'the run')
    .option('--from <offset>', 'start at this stream offset (0: all the run still keeps)', '0')
    .action(async (workflowId: string, opts) => {
      const from = Number(opts.from);
      if (!Number.isSafeInteger(from) || from < 0) throw new UsageError(`--from takes a stream offset (0, 1, 2, ...), not ${opts.from}.`);
      const hitl = await ctx.hitl();
      // A stuck run is said at once (exit 5), as `hitl show` says it, rather than watched in silence.
      await followableRun(hitl.temporal, workflowId, hitl.health);
      const json = ctx.out().json;
      const printer = new WatchPrinter((chunk) => process.stdout.write(chunk));
      for await (const item of hitl.subscribe(workflowId, { fromOffset: from })) {
        if (json) process.stdout.write(`${jsonText(item)}\n`);
        else printer.print(item);
      }
      printer.finish();
    });
};
