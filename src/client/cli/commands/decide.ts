/** `hitl pending`, and `hitl approve|reject|edit|respond RUN ID`. */
import type { Command } from 'commander';
import { decisionFor, type ActionOptions, type DecisionAction } from '../../../contract/decision-actions.js';
import { readEnvConfig } from '../../../config.js';
import { isClosed } from '../../../contract/run-status.js';
import type { DecideResult, Decision } from '../../../schemas/decision.js';
import type { PendingApproval } from '../../../schemas/pending-approval.js';
import { signedDecision } from '../../../signing/sign-decision.js';
import { decisionSignerFromConfig } from '../../../signing/signing-config.js';
import { pollUntil } from '../../poll-until.js';
import type { UnreadableRun } from '../../run-lists.js';
import { appliedLine } from '../applied-text.js';
import { EXIT, UsageError, withHint } from '../errors.js';
import { collectIdentities, parseId, parseIdentity, parseJson, parseJsonFile, parseSeconds } from '../option-values.js';
import { jsonText, pendingTable, print, stuckNotice } from '../output.js';
import { terminalText } from '../terminal-text.js';
import type { CliContext, RegisterCommand } from './context.js';

function decisionOptions(command: Command): Command {
  return command
    .argument('<workflow-id>', 'the run', parseId)
    .argument('<call-id>', 'the pending call (as `hitl pending` lists it)', parseId)
    .option('--as <approver>', 'who decides', parseIdentity)
    .option('--group <group>', 'a group of the approver (repeatable)', collectIdentities)
    .option('--args-hash <hash>', 'refuse if the arguments are not the ones you saw');
}

function report(ctx: CliContext, result: DecideResult, shown: PendingApproval[]): void {
  print(ctx.out(), result, () =>
    result.applied
      .map((a) =>
        appliedLine(
          a,
          shown.find((p) => p.id === a.id),
        ),
      )
      .join('\n'),
  );
}

/** Every decision command: its options become a Decision through the one mapping the HTTP API uses too. */
function decideAction(ctx: CliContext, action: DecisionAction, options: (opts: Record<string, unknown>) => ActionOptions) {
  return async (workflowId: string, callId: string, opts: Record<string, unknown>) => {
    const decision = decisionFor(action, callId, { ...options(opts), argsHash: opts.argsHash as string | undefined });
    if ('invalid' in decision) throw new UsageError(decision.invalid);
    const hitl = await ctx.hitl();
    const who = { approver: opts.as as string | undefined, groups: opts.group as string[] | undefined };
    // The call as it waits, before the decision: what the run checks again before it runs, and what a token signs.
    const shown = await hitl.pending(workflowId).catch(() => []);
    const signed = await signIfKeyHeld(workflowId, { ...decision, id: callId }, who, shown);
    report(ctx, await hitl.decideOne(workflowId, signed, who), shown);
  };
}

/**
 * With a signing key in the environment (HITL_SIGNING_KEY), decisions carry a token in the name of `--as`, for runs
 * that verify signed decisions: the key's holder vouches for the identity, as the HTTP API does for its callers.
 */
async function signIfKeyHeld(
  workflowId: string,
  decision: Decision & { id: string },
  who: { approver?: string; groups?: string[] },
  pending: PendingApproval[],
): Promise<Decision> {
  const signer = decisionSignerFromConfig(readEnvConfig());
  if (!signer) return decision;
  if (!who.approver) throw new UsageError('A signed decision needs the approver it is signed for: add --as <approver>.');
  const argsHash = decision.argsHash ?? pending.find((p) => p.id === decision.id)?.argsHash;
  // Not a pending call (the run ended, or no such id): it goes unsigned, and is refused for what it is.
  if (argsHash === undefined) return decision;
  return signedDecision(signer, decision, { workflowId, argsHash, approver: who.approver, groups: who.groups, now: Date.now() });
}

/** `--wait` alone waits a minute. */
const waitSeconds = (wait: number | true): number => (wait === true ? 60 : wait);

export const registerDecideCommands: RegisterCommand = (program, ctx) => {
  program
    .command('pending')
    .description('what waits for a decision: in one run, or across all runs')
    .argument('[workflow-id]', 'the run')
    .option('--agent <name>', "across runs: only this agent's calls, and those in its runs (its sub-agents')")
    .option('--tool <name>', 'across runs: only this tool')
    .option('--wait [seconds]', 'wait (up to 60 s, or as long as given) until something waits, or in one run until it ends', parseSeconds)
    .action(async (workflowId: string | undefined, opts) => {
      const hitl = await ctx.hitl();
      if (workflowId) {
        if (opts.wait !== undefined) {
          const view = () => hitl.getRun(workflowId, { messagesFrom: Number.MAX_SAFE_INTEGER, decisionsFrom: Number.MAX_SAFE_INTEGER });
          await pollUntil(view, (run) => run.pending.length > 0 || isClosed(run.status), waitSeconds(opts.wait) * 1000);
        }
        const [problem, pending] = await Promise.all([hitl.diagnose(workflowId), hitl.pending(workflowId)]);
        print(
          ctx.out(),
          pending,
          () =>
            [...(problem ? stuckNotice(problem) : [])].join('\n') + (pending.length === 0 ? 'Nothing is waiting.' : pendingTable(pending)),
        );
        return;
      }
      // Across runs, --wait waits for the list to hold something (as the HTTP list's `wait` does); it was ignored.
      const across = () => hitl.waitingAcrossRuns({ agent: opts.agent, tool: opts.tool });
      const waitMs = opts.wait === undefined ? 0 : waitSeconds(opts.wait) * 1000;
      const { waiting, unreadable } = await pollUntil(across, (listing) => listing.waiting.length > 0, waitMs);
      print(ctx.out(), waiting, () =>
        waiting.length === 0
          ? 'Nothing is waiting.'
          : pendingTable(waiting, {
              headers: ['workflow id', 'agent'],
              cells: (w) => [terminalText(w.workflowId), terminalText(w.agent)],
            }),
      );
      // The list is printed whole as far as it goes, and the exit says it is not all (as `kubectl get` does on a
      // partial answer): a script that reads an empty list with exit 0 as "nothing waits" is not misled.
      if (unreadable.length) {
        process.stderr.write(`${ctx.out().json ? jsonText(unreadableError(unreadable)) : unreadableNotice(unreadable)}\n`);
        process.exitCode = EXIT.failed;
      }
    });

  decisionOptions(program.command('approve').description('approve a pending call'))
    .option('--message <text>', 'comment for the audit log')
    .option('--always', 'approve every later call of this tool in this run')
    .action(decideAction(ctx, 'approve', (o) => ({ message: o.message as string, always: o.always as boolean })));

  decisionOptions(program.command('reject').description('reject a pending call; the message reaches the model'))
    .option('--message <text>', 'the reason')
    .option('--always', 'reject every later call of this tool in this run')
    .action(decideAction(ctx, 'reject', (o) => ({ message: o.message as string, always: o.always as boolean })));

  decisionOptions(program.command('edit').description('run the call with new arguments (or as another tool)'))
    .option('--args <json>', 'the new arguments', parseJson)
    .option('--args-file <file>', 'a file holding the new arguments', parseJsonFile)
    .option('--name <tool>', 'run this tool instead')
    .option('--message <text>', 'comment for the audit log')
    .action(
      decideAction(ctx, 'edit', (o) => ({
        args: (o.argsFile ?? o.args) as Record<string, unknown> | undefined,
        name: o.name as string | undefined,
        message: o.message as string | undefined,
      })),
    );

  decisionOptions(program.command('respond').description('answer for the tool: the message is the tool result'))
    .requiredOption('--message <text>', 'the tool result the model receives')
    .action(decideAction(ctx, 'respond', (o) => ({ message: o.message as string })));
};

const unreadableHeadline = (count: number) => `${count} waiting run(s) could not be read here, so their calls are not listed`;

/** The same, for `--json`: the runs and their reasons whole, as data. */
function unreadableError(runs: readonly UnreadableRun[]) {
  return {
    error: {
      code: 'unreadable_runs',
      message: `${unreadableHeadline(runs.length)}.`,
      runs: runs.map((r) => ({ workflowId: r.workflowId, reason: withHint(r.reason) })),
    },
  };
}

/**
 * Runs left out of `hitl pending` across runs, said on stderr (the listing on stdout stays what it is), with each
 * different reason once: without keys, the setting to set; with keys, which key failed and how.
 */
function unreadableNotice(runs: readonly UnreadableRun[]): string {
  const shown = runs.slice(0, 5).map((r) => terminalText(r.workflowId));
  const more = runs.length > shown.length ? ` and ${runs.length - shown.length} more` : '';
  const reasons = [...new Set(runs.map((r) => terminalText(withHint(r.reason), { multiline: true })))];
  return [`${unreadableHeadline(runs.length)}: ${shown.join(', ')}${more}.`, ...reasons].join('\n');
}
