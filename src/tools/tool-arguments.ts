/**
 * Parses and validates a call's arguments against its tool's schema: the zod schema of a tool of ours, the JSON
 * Schema an MCP server listed for one of its tools. Pure: the workflow uses it to keep invalid calls away from
 * approvers and to check edits, the activities to never run a tool on unvalidated input.
 */
import { z } from 'zod';
import { nonFiniteNumberPath } from '../bounds/non-finite-numbers.js';
import { protoKeyPath } from '../bounds/proto-keys.js';
import type { McpTool } from '../schemas/mcp-tool.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import type { ToolSpec } from './define-tool.js';
import { checkJsonSchema, type SchemaCheckMode } from './json-schema-check.js';

export type ArgumentsProblem = 'unknown_tool' | 'invalid_json' | 'invalid_arguments';

export type ParsedArguments = { ok: true; args: ToolArgs } | { ok: false; problem: ArgumentsProblem; message: string };

export interface ParseOptions {
  /**
   * Arguments that JSON does not hold plainly are invalid: a key named `__proto__` (copies of the value read it as a
   * prototype, and the run refuses it when it carries the call into its next run) or a number JSON text reads as
   * Infinity (the arguments' hash throws on it). An MCP tool's JSON Schema lets both through, and so may a tool of
   * ours that takes any JSON. Off only for runs started before the workflow checked this (patch set 25).
   * @default true
   */
  plainJsonOnly?: boolean;
  /** How an MCP tool's schema is checked (json-schema-check.ts): by the run's patch set. @default 'bounded' */
  schemaChecks?: SchemaCheckMode;
}

/**
 * @param available the agent's tools: any other name is an unknown tool.
 * @param mcpTools the MCP tools the run listed when it started.
 */
export function parseToolArguments(
  name: string,
  raw: string | ToolArgs,
  specs: Readonly<Record<string, ToolSpec>>,
  available: readonly string[],
  mcpTools: readonly McpTool[] = [],
  { plainJsonOnly = true, schemaChecks = 'bounded' }: ParseOptions = {},
): ParsedArguments {
  const offered = available.includes(name);
  const spec = offered ? specs[name] : undefined;
  const mcp = offered && !spec ? mcpTools.find((tool) => tool.name === name) : undefined;
  if (!spec && !mcp) {
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
  const notPlain = plainJsonOnly ? notPlainJson(value) : undefined;
  if (notPlain) return invalid(name, `✖ ${notPlain}`);
  if (mcp) return checkMcpArguments(mcp, value, schemaChecks);
  const parsed = spec!.parameters.safeParse(value);
  if (!parsed.success) return invalid(name, z.prettifyError(parsed.error));
  return { ok: true, args: parsed.data as ToolArgs };
}

function checkMcpArguments(tool: McpTool, value: unknown, mode: SchemaCheckMode): ParsedArguments {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return invalid(tool.name, '✖ expected a JSON object');
  const checked = checkJsonSchema(tool.inputSchema, value, { mode });
  if (!checked.ok) return invalid(tool.name, checked.problems.map((p) => `✖ ${p}`).join('\n'));
  return { ok: true, args: value as ToolArgs };
}

function notPlainJson(value: unknown): string | undefined {
  const protoKey = protoKeyPath(value);
  if (protoKey !== undefined) return `a key named __proto__ is not allowed (at ${protoKey})`;
  const nonFinite = nonFiniteNumberPath(value);
  if (nonFinite !== undefined) return `a number too large for JSON (at ${nonFinite})`;
  return undefined;
}

function invalid(name: string, details: string): ParsedArguments {
  return {
    ok: false,
    problem: 'invalid_arguments',
    message: `Error: invalid arguments for ${name}:\n${details}\nFix them and call the tool again.`,
  };
}
