/** The `hitl` command line: start runs, see what waits, decide, watch. */
import { Command, CommanderError } from 'commander';
import { closeSharedHitlClient, sharedHitlClient } from '../connection.js';
import { registerAgentCommand } from './commands/agents.js';
import { registerDecideCommands } from './commands/decide.js';
import type { CliContext } from './commands/context.js';
import { registerModelServerCommand } from './commands/model-server.js';
import { registerReviewCommand } from './commands/review.js';
import { registerRunCommands } from './commands/runs.js';
import { registerSignCommands } from './commands/sign.js';
import { registerWatchCommand } from './commands/watch.js';
import { exitWithError } from './errors.js';
import { terminalText } from './terminal-text.js';

export function buildProgram(): Command {
  const program = new Command('hitl')
    .description('Durable agents whose risky tool calls wait for a human')
    .option('--json', 'machine-readable output')
    .showHelpAfterError()
    // Commander's usage errors quote the argument as given (`--as $'\e]0;…'`): shown with its hidden characters
    // escaped, like every other text of the CLI's (terminal-text.ts). Subcommands inherit this.
    .configureOutput({ outputError: (text, write) => write(terminalText(text, { multiline: true })) })
    .exitOverride();
  const ctx: CliContext = {
    hitl: () => sharedHitlClient(),
    out: () => ({ json: Boolean(program.opts().json) }),
  };
  for (const register of [
    registerRunCommands,
    registerAgentCommand,
    registerDecideCommands,
    registerWatchCommand,
    registerReviewCommand,
    registerModelServerCommand,
    registerSignCommands,
  ]) {
    register(program, ctx);
  }
  return program;
}

/**
 * A reader that stops early (`hitl watch RUN | head -3`) closes stdout: the next write fails with EPIPE, which would
 * crash the CLI with a stack trace. Here, once for every command, it ends the CLI quietly with 0 instead, as Unix
 * tools do (the output was cut short by the reader's choice); any other failure to write is an error like others.
 */
function endQuietlyWhenStdoutCloses(json: () => boolean): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    exitWithError(err, json());
  });
}

export async function main(argv = process.argv): Promise<void> {
  const program = buildProgram();
  const json = () => Boolean(program.opts().json);
  endQuietlyWhenStdoutCloses(json);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    // Commander has already printed usage errors and help.
    if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
    exitWithError(err, json());
  } finally {
    await closeSharedHitlClient();
  }
}
