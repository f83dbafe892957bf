/**
 * `hitl watch RUN`: follows a run on its stream until it ends. The model's text is printed as it is written; every
 * other event is one line. With --json, one line per stream item (`{offset, topic, event | token}`).
 */
import type { RunEvent, RunStreamItem } from '../../../schemas/run-event.js';
import type { TokenEvent } from '../../../schemas/token-event.js';
import { UsageError } from '../errors.js';
import { style } from '../output.js';
import type { RegisterCommand } from './context.js';

export function describeEvent(event: RunEvent): string {
  switch (event.type) {
    case 'status_changed':
      return `status ${style.cyan(event.status)}`;
    case 'step_started':
      return style.bold(`step ${event.step}`);
    case 'model_replied':
      return event.content ? `model: ${event.content}` : '';
    case 'tool_call_proposed':
      return `model → ${event.toolName}(${event.arguments}) [${event.id}]`;
    case 'tool_call_gated':
      return style.dim(`gated: ${event.toolName} [${event.id}] (${event.rule})`);
    case 'approval_requested':
      return style.yellow(
        `waiting for approval: ${event.approval.toolName} [${event.approval.id}] (${event.approval.allowedDecisions.join(', ')})`,
      );
    case 'approval_decided': {
      const { entry } = event;
      const who = entry.approver ? ` by ${entry.approver}` : entry.decidedBy ? ` by ${entry.decidedBy}` : '';
      const quorum = entry.quorum ? ` (${entry.quorum.approvals} of ${entry.quorum.required} approvals)` : '';
      return `decided: ${entry.type} ${entry.toolName} [${entry.id}]${who} via ${entry.via}${quorum}`;
    }
    case 'approval_noted':
      return style.yellow(`${event.entry.event?.replaceAll('_', ' ')} [${event.entry.id}]: ${event.entry.message}`);
    case 'approval_timed_out':
      return style.yellow(`timed out: ${event.entry.toolName} [${event.entry.id}] (${event.entry.message ?? event.entry.type})`);
    case 'decision_refused':
      return style.red(`refused decision: ${event.entry.refusal?.message}`);
    case 'tool_call_started':
      return style.dim(`running ${event.toolName} [${event.id}]`);
    case 'tool_call_finished':
      return `tool [${event.id}]: ${event.content}`;
    case 'message_queued':
      return `user: ${event.content}`;
    case 'run_finished':
      return style.bold(`${event.status}: ${event.output}`);
    case 'run_failed':
      return style.bold(`${event.status}${event.error ? `: ${event.error}` : ''}`);
  }
}

/**
 * Text as it streams, then the other events. A retried model call starts its text again: what the failed attempt
 * wrote is marked as dropped. When a step's reply arrives, its text was already printed (unless it was not streamed).
 */
export class WatchPrinter {
  /** The step and attempt whose text is being printed, and whether the line is still open. */
  private text?: { step: number; attempt: number; open: boolean };

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
    this.write(token.text);
  }

  /** The run has ended: close the text's line if it is open. */
  finish(): void {
    this.endLine();
  }

  private endLine(): void {
    if (!this.text?.open) return;
    this.write('\n');
    this.text.open = false;
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
      const json = ctx.out().json;
      const printer = new WatchPrinter((chunk) => process.stdout.write(chunk));
      for await (const item of hitl.subscribe(workflowId, { fromOffset: from })) {
        if (json) process.stdout.write(`${JSON.stringify(item)}\n`);
        else printer.print(item);
      }
      printer.finish();
    });
};
