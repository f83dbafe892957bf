/** The `hitl` command line: start runs, see what waits, decide, watch. */
import { Command, CommanderError, type OutputConfiguration } from 'commander';
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
import { jsonText } from './output.js';
import { terminalText } from './terminal-text.js';

/**
 * Whether the command line asks for JSON: read from the words themselves, because a usage error can stop Commander
 * before it has read a `--json` given after the command (`hitl pending --wait x --json`). Not after `--`, where
 * every word is an argument.
 */
export function jsonRequested(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}

/**
 * Commander's usage errors: for people, the message with the command's help after it, its hidden characters escaped
 * (Commander quotes the argument as given, `--as $'\e]0;…'`), like every other text of the CLI's (terminal-text.ts);
 * with `--json`, the same `{"error": {"code": "usage", "message"}}` on stderr as every other error, without the help.
 */
function usageErrorOutput(json: boolean): OutputConfiguration {
  if (!json) return { outputError: (text, write) => write(terminalText(text, { multiline: true })) };
  return {
    writeErr: () => {},
    outputError: (text: string) => {
      const message = text.trim().replace(/^error: /, '');
      process.stderr.write(`${jsonText({ error: { code: 'usage', message } })}\n`);
    },
  };
}

export function buildProgram(options: { jsonErrors?: boolean } = {}): Command {
  const program = new Command('hitl')
    .description('Durable agents whose risky tool calls wait for a human')
    .option('--json', 'machine-readable output')
    .showHelpAfterError()
    // Subcommands inherit this.
    .configureOutput(usageErrorOutput(options.jsonErrors ?? false))
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
  const program = buildProgram({ jsonErrors: jsonRequested(argv.slice(2)) });
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
