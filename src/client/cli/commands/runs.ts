/** `hitl start`, `hitl runs`, `hitl show`. */
import { Option } from 'commander';
import { checkRunStart } from '../../../agents/check-run-start.js';
import { loadAgents } from '../../../agents/registry.js';
import { readEnvConfig } from '../../../config.js';
import { RUN_STATUSES } from '../../../contract/run-status.js';
import type { RunState } from '../../../schemas/run-state.js';
import { decisionSignerFromConfig } from '../../../signing/signing-config.js';
import { UnknownAgentError } from '../../../errors.js';
import { checkAgentServed } from '../../served-agent.js';
import { withHint } from '../errors.js';
import { shellWord } from '../../shell-word.js';
import { parseCount, parseIdentity, parseJson } from '../option-values.js';
import { outcomeText, pendingTable, print, retryingCell, retryingNotice, stuckNotice, style, table, until } from '../output.js';
import { carryUnfitNotice } from '../../../contract/carry-unfit-notice.js';
import { runCallIds } from '../call-labels.js';
import { terminalText } from '../terminal-text.js';
import type { RegisterCommand } from './context.js';

export const registerRunCommands: RegisterCommand = (program, ctx) => {
  program
    .command('start')
    .description('start a run')
    .requiredOption('--agent <name>', 'agent to run')
    .option(
      '--requested-by <who>',
      'who asks (the four-eyes rule keeps them from approving their own calls); signed in that name when HITL_SIGNING_KEY is set',
      parseIdentity,
    )
    .option('--max-steps <n>', 'step limit', parseCount)
    .option('--context <json>', 'data tools receive and the model never sees', parseJson)
    .option('--approval <json>', "the run's own approval policy (by default it may only tighten the agent's)", parseJson)
    .option('--id <workflow-id>', 'workflow id to use (default: <agent>-<uuid>)')
    .option('--session', 'stay open for more messages (hitl say) until hitl end or the idle timeout')
    .option('--idle-timeout <duration>', 'session idle timeout, e.g. 2h or 7d')
    .option('--interrupt <json>', 'breakpoints, e.g. \'{"beforeTools": true}\' (beforeModel, afterModel, beforeTools)', parseJson)
    .option(
      '--continue-as-new <json>',
      'when the run starts over with fresh history, e.g. \'{"beforeWaitEvents": 200, "compaction": {"keepLastTurns": 3}}\'',
      parseJson,
    )
    .option('-q, --quiet', 'print only the workflow id (RUN=$(hitl start -q …))')
    .argument('<prompt>', 'what to ask')
    .action(async (prompt: string, opts) => {
      // The workers may serve agents this environment does not list: only what is known here is checked.
      const config = readEnvConfig();
      const known = loadAgents(config);
      const { agent, approval, interrupt, requestedBy } = opts;
      checkRunStart(known, { agent, approval, interrupt, requestedBy }, { unknownAgents: 'allow' });
      const hitl = await ctx.hitl();
      const started = await hitl.startRun(
        {
          agent: opts.agent,
          prompt,
          requestedBy: opts.requestedBy,
          maxSteps: opts.maxSteps,
          context: opts.context,
          interrupt: opts.interrupt,
          approval: opts.approval,
          continueAsNew: opts.continueAsNew,
          ...((opts.session || opts.idleTimeout) && { session: { idleTimeout: opts.idleTimeout ?? '7d' } }),
        },
        // A run whose decisions must be signed takes its requester only from a token: the key holder vouches for it.
        { workflowId: opts.id, signer: decisionSignerFromConfig(config) },
      );
      // Any other agent is the workers' to know: their first task on the run says, and a typo exits non-zero. The run
      // has started, so a check that could not be made (a run this process cannot decode) still prints its id.
      if (!Object.hasOwn(known, opts.agent))
        await checkAgentServed(hitl.temporal, started.workflowId, opts.agent).catch((err: unknown) => {
          if (err instanceof UnknownAgentError) throw err;
          process.stderr.write(
            `Started, but could not check that a worker serves "${terminalText(opts.agent)}": ${withHint(String(err))}\n`,
          );
        });
      if (opts.quiet && !ctx.out().json) return void process.stdout.write(`${started.workflowId}\n`);
      const id = terminalText(started.workflowId);
      print(ctx.out(), started, () => `Started ${style.bold(id)}\nWatch it: hitl watch ${terminalText(shellWord(started.workflowId))}`);
    });

  program
    .command('runs')
    .description('list runs')
    .option('--waiting', 'only runs waiting for approval')
    .addOption(new Option('--status <status>', 'only runs in this status').choices(RUN_STATUSES))
    .option('--stuck', 'only stuck runs (a failing workflow task, or no worker), with why')
    .option('--agent <name>', 'only this agent')
    .action(async (opts) => {
      const hitl = await ctx.hitl();
      const runs = opts.stuck
        ? await hitl.listStuck({ agent: opts.agent })
        : await hitl.listRuns({ status: opts.waiting ? 'AwaitingApproval' : opts.status, agent: opts.agent });
      print(ctx.out(), runs, () =>
        runs.length === 0
          ? opts.stuck
            ? 'No stuck runs.'
            : 'No runs.'
          : table(
              ['workflow id', 'agent', 'status', 'pending', 'next deadline', 'prompt'],
              runs.map((r) => [
                terminalText(r.workflowId),
                terminalText(r.agent),
                r.problem
                  ? style.red(`${terminalText(r.status)}, STUCK since ${r.problem.since} (${r.problem.kind.replace(/_/g, ' ')})`)
                  : r.retrying
                    ? `${terminalText(r.status)}, ${retryingCell(r.retrying)}`
                    : terminalText(r.status),
                r.pendingCount || '',
                r.nextDeadline ? until(r.nextDeadline) : '',
                promptCell(r.prompt ?? ''),
              ]),
            ) +
            (runs.some((r) => r.problem) ? '\nA stuck run cannot take decisions: hitl show <workflow id> says why and what to do.' : '') +
            (runs.some((r) => !r.problem && r.retrying)
              ? '\nA retrying run tries again by itself: hitl show <workflow id> says its last failure.'
              : ''),
      );
    });

  program
    .command('say')
    .description('send the next user message to a session run')
    .argument('<workflow-id>', 'the session run')
    .argument('<message>', 'what to say')
    .option('--from <who>', 'who says it', parseIdentity)
    .action(async (workflowId: string, message: string, opts) => {
      const queued = await (await ctx.hitl()).say(workflowId, message, { from: opts.from });
      print(ctx.out(), queued, () => `Sent (${queued.queued} message${queued.queued === 1 ? '' : 's'} queued for the next turn).`);
    });

  program
    .command('end')
    .description('close a session run after its current turn')
    .argument('<workflow-id>', 'the session run')
    .option('--reason <text>', 'why')
    .action(async (workflowId: string, opts) => {
      await (await ctx.hitl()).endSession(workflowId, opts.reason);
      print(ctx.out(), { ending: true }, () => 'The session will end after its current turn.');
    });

  program
    .command('cancel')
    .description('cancel a run: what it waits for is cancelled, and it ends Canceled with its audit log')
    .argument('<workflow-id>', 'the run')
    .action(async (workflowId: string) => {
      const result = await (await ctx.hitl()).cancel(workflowId);
      print(ctx.out(), result, () => `Cancelling ${style.bold(terminalText(workflowId))}: it ends Canceled once what it runs has stopped.`);
    });

  program
    .command('show')
    .description('show a run: status, pending calls, transcript and audit log (and why, for a stuck run)')
    .argument('<workflow-id>', 'the run')
    .action(async (workflowId: string) => {
      const state = await (await ctx.hitl()).getRun(workflowId);
      print(ctx.out(), state, () => describeRun(workflowId, state));
    });
};

/** Characters `show` prints of one prompt, message, result or arguments; `--json show` has them whole. */
const SHOWN_CHARS = 2000;

/** Every text of the run goes through terminalText: a prompt, the model's words or a name can hold escape sequences. */
export function describeRun(workflowId: string, s: RunState): string {
  const t = terminalText;
  const lines = [
    ...(s.problem ? stuckNotice(s.problem) : []),
    `${style.bold(t(workflowId))}  ${t(s.agent)}  ${style.cyan(t(s.status))}  step ${s.step}${s.requestedBy ? `  requested by ${t(s.requestedBy)}` : ''}`,
    ...retryingNotice(s.retrying ?? []),
    ...(s.carryUnfit ? [style.yellow(carryUnfitNotice(s.carryUnfit))] : []),
    `Prompt: ${t(s.prompt, { maxChars: SHOWN_CHARS })}`,
  ];
  if (s.pending.length) {
    lines.push('', style.bold('Waiting for approval'));
    lines.push(pendingTable(s.pending));
    // Too many waiting calls for one answer (src/workflows/listed-pending.ts): the rest are not in this view.
    if (s.morePending) lines.push(style.yellow(`More calls wait than these ${s.pending.length}: hitl pending lists more.`));
  }
  lines.push('', style.bold('Transcript'));
  // Deeper than the transcript's own two spaces: a reply's later lines cannot pass for a line of the transcript.
  const text = (content: string) => t(content, { multiline: true, indent: '      ', maxChars: SHOWN_CHARS });
  // Calls by the run's ids where it can tell them (decisions take those), else by the model's (call-labels.ts).
  const ids = runCallIds(s.messages, s.policyOutcomes);
  let named = new Map<string, string>();
  for (const [i, m] of s.messages.entries()) {
    if (i === 0) continue;
    if (m.role === 'assistant') {
      if (m.content) lines.push(`  assistant: ${text(m.content)}`);
      const calls = m.tool_calls ?? [];
      if (calls.length) named = new Map(calls.map((call, j) => [call.id, ids.get(i)?.[j] ?? call.id]));
      for (const [j, call] of calls.entries()) {
        const id = ids.get(i)?.[j] ?? call.id;
        lines.push(`  assistant → ${t(call.function.name)}(${t(call.function.arguments, { maxChars: SHOWN_CHARS })}) [${t(id)}]`);
      }
    } else if (m.role === 'tool') lines.push(`  tool [${t(named.get(m.tool_call_id) ?? m.tool_call_id)}]: ${text(m.content)}`);
    else lines.push(`  ${m.role}: ${text(m.content)}`);
  }
  if (s.decisions.length) {
    lines.push('', style.bold('Decisions'));
    // Continue-as-new carries what fits (decided entries first): the rest stays in the runs before this one.
    const earlier = s.decisions.at(-1)!.seq - s.decisions.length;
    if (earlier > 0)
      lines.push(`${earlier} earlier entries are in this run's history or its earlier runs (previousRunIds in hitl --json show).`);
    lines.push(
      table(
        ['#', 'when', 'via', 'outcome', 'type', 'call', 'approver', 'message'],
        s.decisions.map((d) => [
          d.seq,
          d.at,
          d.via,
          d.outcome,
          d.type ?? d.event,
          t(d.id),
          // A refused decision's approver is only the name its input gave.
          d.outcome === 'refused' && d.approver !== undefined ? `${t(d.approver)} (claimed)` : t(d.approver ?? d.decidedBy),
          t(d.refusal?.message ?? d.message),
        ]),
      ),
    );
  }
  if (s.result) lines.push('', `${style.bold('Result')} (${outcomeText(s.result.status, s.result.ended)}): ${text(s.result.output)}`);
  if (s.error) lines.push('', `${style.red('Error')}: ${text(s.error)}`);
  return lines.join('\n');
}

/** The prompt in a list's cell: its first 60 characters, whole code points, and a mark where it was cut. */
export function promptCell(prompt: string): string {
  const points = [...prompt];
  return points.length > 60 ? `${terminalText(points.slice(0, 59).join(''))}…` : terminalText(prompt);
}
