import type { Command } from 'commander';
import type { HitlClient } from '../../hitl-client.js';
import type { Output } from '../output.js';

/** What every command gets: the shared client (connected on first use) and the output mode. */
export interface CliContext {
  hitl(): Promise<HitlClient>;
  out(): Output;
}

export type RegisterCommand = (program: Command, ctx: CliContext) => void;
