/**
 * `hitl review RUN`: an interactive review of each pending call. Reads answers line by line from stdin, so it
 * works at a terminal and when another program drives it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ApprovalNotFoundError, DecisionRefusedError } from '../../../errors.js';
import { encodeApprovalId } from '../../../contract/approval-id.js';
import type { HitlClient } from '../../hitl-client.js';
import type { DecideResult, DecisionType } from '../../../schemas/decision.js';
import type { PendingApproval } from '../../../schemas/pending-approval.js';
import { appliedLine } from '../applied-text.js';
import { collectIdentities, parseIdentity } from '../option-values.js';
import { reviewText } from '../review-text.js';
import { style } from '../output.js';
import { terminalText } from '../terminal-text.js';
import type { RegisterCommand } from './context.js';

/** The decisions review offers (`ignore` is for clients that speak LangGraph; reject says why). */
const KEYS: Partial<Record<DecisionType, string>> = { approve: 'a', edit: 'e', reject: 'r', respond: 'p' };

/** Lines from stdin, one at a time; undefined once stdin ends. */
function lineReader() {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const lines: string[] = [];
  const waiters: ((line: string | undefined) => void)[] = [];
  let ended = false;
  rl.on('line', (line) => (waiters.length ? waiters.shift()!(line) : lines.push(line)));
  rl.on('close', () => {
    ended = true;
    while (waiters.length) waiters.shift()!(undefined);
  });
  return {
    ask(prompt: string): Promise<string | undefined> {
      process.stdout.write(prompt);
      if (lines.length) return Promise.resolve(lines.shift());
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => waiters.push(resolve));
    },
    close: () => rl.close(),
  };
}

/**
 * The call with its arguments whole. The run's list has a preview of large ones (`argsTruncated`), and nobody should
 * approve what they saw only part of, nor edit from a preview: the edit would send the preview as the arguments.
 * Undefined when the call was decided meanwhile.
 */
async function wholeCall(hitl: HitlClient, workflowId: string, listed: PendingApproval): Promise<PendingApproval | undefined> {
  if (!listed.argsTruncated) return listed;
  try {
    const call = await hitl.findApproval(encodeApprovalId({ workflowId, callId: listed.id }));
    const { argsTruncated: _preview, ...rest } = listed;
    return { ...rest, args: call.args };
  } catch (err) {
    if (err instanceof ApprovalNotFoundError) return undefined;
    throw err;
  }
}

/** New arguments from $EDITOR (a temp file holding the current ones), or typed as one JSON line. */
async function editArgs(
  p: PendingApproval,
  ask: (prompt: string) => Promise<string | undefined>,
): Promise<Record<string, unknown> | undefined> {
  const editor = process.env.VISUAL || process.env.EDITOR;
  let text: string | undefined;
  if (editor) {
    const dir = mkdtempSync(path.join(tmpdir(), 'hitl-edit-'));
    // The name goes through a shell with the editor: only characters that mean nothing there (a tool name may be an
    // MCP server's, which this run only listed).
    const file = path.join(dir, `${p.toolName.replace(/[^\w.-]/g, '_').slice(0, 100)}.json`);
    writeFileSync(file, `${JSON.stringify(p.args, null, 2)}\n`);
    const result = spawnSync(`${editor} "${file}"`, { shell: true, stdio: 'inherit' });
    text = result.status === 0 ? readFileSync(file, 'utf8') : undefined;
    rmSync(dir, { recursive: true, force: true });
  } else {
    text = await ask('New arguments (one line of JSON): ');
  }
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  } catch {
    process.stdout.write(style.red('That is not valid JSON; skipping this call.\n'));
    return undefined;
  }
}

export const registerReviewCommand: RegisterCommand = (program, ctx) => {
  program
    .command('review')
    .description('review each pending call of a run interactively')
    .argument('<workflow-id>', 'the run')
    .option('--as <approver>', 'who decides', parseIdentity)
    .option('--group <group>', 'a group of the approver (repeatable)', collectIdentities)
    .action(async (workflowId: string, opts) => {
      const hitl = await ctx.hitl();
      const input = lineReader();
      const who = { approver: opts.as, groups: opts.group };
      // Said at the end, in the exit code too, for a script that pipes its answers: a call left refused is 3 (as a
      // refused decision is), input that ran out before every call was seen is 1.
      let refusedLast = 0;
      try {
        const pending = await hitl.pending(workflowId);
        if (pending.length === 0) process.stdout.write('Nothing is waiting for a decision.\n');
        for (const [i, listed] of pending.entries()) {
          const p = await wholeCall(hitl, workflowId, listed);
          if (!p) {
            process.stdout.write(`\n[${i + 1}/${pending.length}] call ${terminalText(listed.id)} is no longer waiting.\n`);
            continue;
          }
          process.stdout.write(reviewText(p, { index: i + 1, of: pending.length }));
          const offered = p.allowedDecisions.filter((d) => KEYS[d]);
          const choices = offered
            .map((d) => `${KEYS[d]}=${d}`)
            .concat('s=skip')
            .join(', ');
          let decided = false;
          let refused = false;
          while (!decided) {
            const answer = (await input.ask(`Decision (${choices}): `))?.trim().toLowerCase();
            if (answer === undefined) {
              const left = pending.length - i;
              process.stdout.write(`\nThe input ended: ${left} call${left === 1 ? '' : 's'} not reviewed, still waiting.\n`);
              process.exitCode = 1;
              return;
            }
            const type = offered.find((d) => answer === KEYS[d] || answer === d);
            if (answer === 's' || answer === 'skip') break;
            if (!type) {
              process.stdout.write(`Please answer one of: ${choices}\n`);
              continue;
            }
            try {
              let result: DecideResult;
              if (type === 'approve') result = await hitl.approve(workflowId, p.id, { ...who, argsHash: p.argsHash });
              else if (type === 'reject')
                result = await hitl.reject(workflowId, p.id, {
                  ...who,
                  argsHash: p.argsHash,
                  message: (await input.ask('Reason (told to the model): ')) || undefined,
                });
              else if (type === 'respond')
                result = await hitl.respond(workflowId, p.id, (await input.ask('Response (the tool result): ')) ?? '', {
                  ...who,
                  argsHash: p.argsHash,
                });
              else {
                const args = await editArgs(p, input.ask);
                if (!args) continue;
                result = await hitl.edit(workflowId, p.id, { ...who, argsHash: p.argsHash, args });
              }
              process.stdout.write(`${result.applied.map((a) => appliedLine(a, p)).join('\n')}\n`);
              decided = true;
              refused = false;
            } catch (err) {
              if (!(err instanceof DecisionRefusedError)) throw err;
              process.stdout.write(
                `${style.red(`Refused (${err.code}):`)} ${terminalText(err.message, { multiline: true, indent: '  ' })}\n`,
              );
              refused = err.code !== 'already_decided' && err.code !== 'run_closed';
              if (!refused) decided = true;
            }
          }
          if (refused) refusedLast++;
        }
        if (refusedLast > 0) {
          process.stdout.write(`${refusedLast} call${refusedLast === 1 ? '' : 's'} left as refused: still waiting.\n`);
          process.exitCode = 3;
        }
      } finally {
        input.close();
      }
    });
};
