/**
 * Parsers for option values. They run while Commander parses the command line, so a bad value is a usage error
 * (exit 2) that names the option and its value, printed before anything is sent.
 */
import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { IDENTITY_NAME_RULE, isIdentityName } from '../../bounds/identity-names.js';

export function parseJson(value: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(value) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new InvalidArgumentError('expected a JSON object');
}

/** A run's or a call's id as an argument: a blank one names nothing, and is refused before anything is sent. */
export function parseId(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected an id, not a blank one');
  return value;
}

/**
 * A whole number written in digits (`--max-steps`, `--port`): `Number.parseInt` read `1e9` as 1 and `20abc` as 20, so a
 * run meant to have a billion steps had one.
 */
export function parseCount(value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new InvalidArgumentError('expected a whole number, in digits');
  return Number(value);
}

/** Seconds to wait, in digits with an optional fraction (`--wait 2.5`). */
export function parseSeconds(value: string): number {
  if (!/^\d{1,9}(\.\d+)?$/.test(value)) throw new InvalidArgumentError('expected a number of seconds, in digits');
  return Number(value);
}

/** A file holding a JSON object (`--args-file`): refused as `--args` is, whether it cannot be read or holds no object. */
export function parseJsonFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InvalidArgumentError(`cannot read the file (${err instanceof Error ? err.message : String(err)})`);
  }
  try {
    return parseJson(text);
  } catch {
    throw new InvalidArgumentError('expected a file holding a JSON object');
  }
}

/**
 * Who decides, asks or speaks (`--as`, `--group`, `--requested-by`, `--from`). A blank name would act in no one's
 * name: the client drops an empty approver, so the decision would go through unattributed. One that is not a name
 * (padded, an invisible character, a `user:` or `group:` prefix) would count as someone else (src/bounds/identity-names.ts).
 */
export function parseIdentity(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected a name, not a blank one');
  if (!isIdentityName(value)) throw new InvalidArgumentError(`expected a name: ${IDENTITY_NAME_RULE}`);
  return value;
}

/** A repeatable identity option (`--group`): each value is checked as it is collected. */
export function collectIdentities(value: string, previous: string[] = []): string[] {
  return [...previous, parseIdentity(value)];
}
