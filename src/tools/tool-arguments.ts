/**
 * Parses and validates a call's arguments against its tool's schema. Pure: the workflow uses it to keep invalid
 * calls away from approvers, the activity to never run a tool on unvalidated input.
 */
import { z } from 'zod';
import type { ToolArgs } from '../schemas/tool-args.js';
import type { ToolSpec } from './define-tool.js';

export type ArgumentsProblem = 'unknown_tool' | 'invalid_json' | 'invalid_arguments';

export type ParsedArguments = { ok: true; args: ToolArgs } | { ok: false; problem: ArgumentsProblem; message: string };

export function parseToolArguments(
  name: string,
  raw: string | ToolArgs,
  specs: Readonly<Record<string, ToolSpec>>,
  available: readonly string[],
): ParsedArguments {
  const spec = available.includes(name) ? specs[name] : undefined;
  if (!spec) {
    return {
      ok: false,
      problem: 'unknown_tool',
      message: `Error: ${name} is not a valid tool, try one of [${available.join(', ')}].`,
    };
  }
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch (err) {
      return {
        ok: false,
        problem: 'invalid_json',
        message: `Error: the arguments for ${name} are not valid JSON (${(err as Error).message}). Call the tool again with a JSON object.`,
      };
    }
  }
  const parsed = spec.parameters.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      problem: 'invalid_arguments',
      message: `Error: invalid arguments for ${name}:\n${z.prettifyError(parsed.error)}\nFix them and call the tool again.`,
    };
  }
  return { ok: true, args: parsed.data as ToolArgs };
}
