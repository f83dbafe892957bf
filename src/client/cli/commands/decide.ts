/** `hitl pending`, and `hitl approve|reject|edit|respond RUN ID`. */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { DecideResult } from '../../../schemas/decision.js';
import type { DecisionOptions } from '../../hitl-client.js';
import { print, style, table, until } from '../output.js';
import type { CliContext, RegisterCommand } from './context.js';
import { parseJson } from './runs.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

function decisionOptions(command: Command): Command {
  return command
    .argument('<run>', 'run id')
    .argument('<id>', 'tool call id')
    .option('--as <approver>', 'who decides')
    .option('--group <group>', 'a group of the approver (repeatable)', collect)
    .option('--args-hash <hash>', 'refuse if the arguments are not the ones you saw');
}

function common(opts: { as?: string; group?: string[]; argsHash?: string }): DecisionOptions {
  return { approver: opts.as, groups: opts.group, argsHash: opts.argsHash };
}

function report(ctx: CliContext, result: DecideResult): void {
  print(ctx.out(), result, () =>
    result.applied
      .map((a) => `${style.green('✓')} ${a.type} ${a.toolName} (call ${a.id})${a.approver ? ` by ${a.approver}` : ''}`)
      .join('\n'),
  );
}

export const registerDecideCommands: RegisterCommand = (program, ctx) => {
  program
    .command('pending')
    .description('what waits for a decision: in one run, or across all runs')
    .argument('[run]', 'run id')
    .option('--agent <name>', 'across runs: only this agent')
    .option('--tool <name>', 'across runs: only this tool')
    .action(async (runId: string | undefined, opts) => {
      const hitl = await ctx.hitl();
      if (runId) {
        const pending = await hitl.pending(runId);
        print(ctx.out(), pending, () =>
          pending.length === 0
            ? 'Nothing is waiting.'
            : table(
                ['call', 'tool', 'args', 'allowed', 'due', 'approvers'],
                pending.map((p) => [
                  p.id,
                  p.toolName,
                  JSON.stringify(p.args),
                  p.allowedDecisions.join(' '),
                  until(p.deadline),
                  p.approvers?.join(' '),
                ]),
              ),
        );
        return;
      }
      const waiting = await hitl.listWaiting({ agent: opts.agent, tool: opts.tool });
      print(ctx.out(), waiting, () =>
        waiting.length === 0
          ? 'Nothing is waiting.'
          : table(
              ['run', 'call', 'agent', 'tool', 'args', 'allowed', 'due'],
              waiting.map((w) => [
                w.runId,
                w.id,
                w.agent,
                w.toolName,
                JSON.stringify(w.args),
                w.allowedDecisions.join(' '),
                until(w.deadline),
              ]),
            ),
      );
    });

  decisionOptions(program.command('approve').description('approve a pending call'))
    .option('--message <text>', 'comment for the audit log')
    .option('--always', 'approve every later call of this tool in this run')
    .action(async (runId: string, id: string, opts) => {
      report(ctx, await (await ctx.hitl()).approve(runId, id, { ...common(opts), message: opts.message, always: opts.always }));
    });

  decisionOptions(program.command('reject').description('reject a pending call; the message reaches the model'))
    .option('--message <text>', 'the reason')
    .option('--always', 'reject every later call of this tool in this run')
    .action(async (runId: string, id: string, opts) => {
      report(ctx, await (await ctx.hitl()).reject(runId, id, { ...common(opts), message: opts.message, always: opts.always }));
    });

  decisionOptions(program.command('edit').description('run the call with new arguments (or as another tool)'))
    .option('--args <json>', 'the new arguments', parseJson)
    .option('--args-file <file>', 'a file holding the new arguments')
    .option('--name <tool>', 'run this tool instead')
    .option('--message <text>', 'comment for the audit log')
    .action(async (runId: string, id: string, opts) => {
      const args = opts.argsFile ? parseJson(readFileSync(opts.argsFile, 'utf8')) : opts.args;
      report(ctx, await (await ctx.hitl()).edit(runId, id, { ...common(opts), args, name: opts.name, message: opts.message }));
    });

  decisionOptions(program.command('respond').description('answer for the tool: the message is the tool result'))
    .requiredOption('--message <text>', 'the tool result the model receives')
    .action(async (runId: string, id: string, opts) => {
      report(ctx, await (await ctx.hitl()).respond(runId, id, opts.message, common(opts)));
    });
};
