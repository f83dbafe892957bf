/** `hitl watch RUN`: one line per event until the run ends. */
import type { RunEvent } from '../../../schemas/run-event.js';
import { style } from '../output.js';
import type { RegisterCommand } from './context.js';

export function describeEvent(event: RunEvent): string {
  switch (event.type) {
    case 'status':
      return `status ${style.cyan(event.status)}`;
    case 'step':
      return style.bold(`step ${event.step}`);
    case 'model_reply':
      return [
        ...(event.message.content ? [`model: ${event.message.content}`] : []),
        ...(event.message.tool_calls ?? []).map((c) => `model → ${c.function.name}(${c.function.arguments}) [${c.id}]`),
      ].join('\n');
    case 'approval_requested':
      return style.yellow(
        `waiting for approval: ${event.approval.toolName} [${event.approval.id}] (${event.approval.allowedDecisions.join(', ')})`,
      );
    case 'decision':
      if (event.entry.outcome === 'refused') return style.red(`refused decision: ${event.entry.refusal?.message}`);
      if (event.entry.outcome === 'noted')
        return style.yellow(`${event.entry.event?.replace('_', ' ')} [${event.entry.id}]: ${event.entry.message}`);
      return `decided: ${event.entry.type} ${event.entry.toolName} [${event.entry.id}]${event.entry.approver ? ` by ${event.entry.approver}` : ''}${event.entry.decidedBy ? ` by ${event.entry.decidedBy}` : ''} via ${event.entry.via}${event.entry.quorum ? ` (${event.entry.quorum.approvals} of ${event.entry.quorum.required} approvals)` : ''}`;
    case 'tool_result':
      return `tool [${event.toolCallId}]: ${event.content}`;
    case 'user_message':
      return `user: ${event.content}`;
    case 'completed':
      return style.bold(`${event.status}${event.result ? `: ${event.result.output}` : ''}${event.error ? `: ${event.error}` : ''}`);
  }
}

export const registerWatchCommand: RegisterCommand = (program, ctx) => {
  program
    .command('watch')
    .description('follow a run as it happens, until it ends')
    .argument('<workflow-id>', 'the run')
    .option('--interval <ms>', 'how often to ask the run', (v) => Number.parseInt(v, 10), 1000)
    .action(async (workflowId: string, opts) => {
      const hitl = await ctx.hitl();
      for await (const event of hitl.watch(workflowId, { intervalMs: opts.interval })) {
        process.stdout.write(ctx.out().json ? `${JSON.stringify(event)}\n` : `${describeEvent(event)}\n`);
      }
    });
};
