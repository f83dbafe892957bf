/**
 * What a run records of its agent's MCP servers when it starts: every tool the agent's `tools` entries pick, with
 * its name, description, input schema and annotations, checked and bounded here (LIMITS), so that nothing a server
 * lists can make the record too large or the workflow's checks fail. A tool that cannot be recorded is left out,
 * with the reason, and the run goes on with the others.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { jsonDepthExceeds } from '../bounds/json-depth.js';
import { truncateBytes, utf8Length } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import type { McpServerConfig } from '../schemas/mcp-server-config.js';
import { McpToolAnnotations, type McpListing, type McpSkippedTool, type McpTool } from '../schemas/mcp-tool.js';
import { checkJsonSchema } from '../tools/json-schema-check.js';
import { linearPatternProblem } from '../tools/schema-patterns.js';
import { matchesPattern, mcpToolName, TOOL_NAME } from '../tools/tool-names.js';

/** Skipped tools a run records (the rest are counted in the last entry). */
const MAX_SKIPPED = 50;

/** Builds the record from each server's listing (in the order the agent declares its servers). */
export function recordListing(
  servers: readonly { name: string; config: McpServerConfig; tools: readonly Tool[] }[],
  patterns: readonly string[],
): McpListing {
  const tools: McpTool[] = [];
  const skipped: McpSkippedTool[] = [];
  let bytes = 0;
  for (const server of servers) {
    for (const listed of server.tools) {
      const name = mcpToolName(server.name, listed.name);
      if (!patterns.some((pattern) => matchesPattern(pattern, name))) continue;
      const tool = toRecord(server.name, server.config, listed, name);
      if (typeof tool === 'string') {
        skipped.push({ name: truncateBytes(name, 200), reason: tool });
        continue;
      }
      const size = utf8Length(JSON.stringify(tool));
      const reason = tools.some((t) => t.name === name)
        ? 'the server lists two tools of this name'
        : tools.length >= LIMITS.mcpToolsPerRun
          ? `over the limit of ${LIMITS.mcpToolsPerRun} MCP tools per run`
          : bytes + size > LIMITS.mcpToolsBytes
            ? `over the limit of ${LIMITS.mcpToolsBytes} bytes of MCP tools per run`
            : undefined;
      if (reason !== undefined) {
        skipped.push({ name, reason });
        continue;
      }
      tools.push(tool);
      bytes += size;
    }
  }
  if (skipped.length > MAX_SKIPPED) {
    const more = skipped.length - (MAX_SKIPPED - 1);
    skipped.splice(MAX_SKIPPED - 1, skipped.length, { name: '…', reason: `${more} more tools left out` });
  }
  return { tools, skipped };
}

/** The tool as a run records it, or why it cannot be. */
function toRecord(server: string, config: McpServerConfig, listed: Tool, name: string): McpTool | string {
  if (!TOOL_NAME.test(name)) return "the name does not fit the model API's rule (letters, digits, `_` and `-`, at most 64)";
  if (listed.execution?.taskSupport === 'required') return 'the tool runs only as an MCP task, which this worker does not use';
  const inputSchema = listed.inputSchema as Record<string, unknown>;
  const problem = schemaProblem(inputSchema);
  if (problem) return problem;
  const annotations = McpToolAnnotations.safeParse(listed.annotations ?? {});
  return {
    name,
    server,
    tool: listed.name,
    description: truncateBytes(listed.description ?? listed.title ?? '', LIMITS.mcpDescriptionBytes),
    inputSchema,
    ...(annotations.success && listed.annotations && { annotations: pickAnnotations(annotations.data) }),
    ...(config.timeout && { timeout: config.timeout }),
  };
}

function pickAnnotations(a: McpToolAnnotations): McpToolAnnotations {
  return {
    ...(a.title !== undefined && { title: truncateBytes(a.title, 200) }),
    ...(a.readOnlyHint !== undefined && { readOnlyHint: a.readOnlyHint }),
    ...(a.destructiveHint !== undefined && { destructiveHint: a.destructiveHint }),
    ...(a.idempotentHint !== undefined && { idempotentHint: a.idempotentHint }),
    ...(a.openWorldHint !== undefined && { openWorldHint: a.openWorldHint }),
  };
}

/** Why the workflow could not check arguments against this schema, if it could not. */
function schemaProblem(schema: Record<string, unknown>): string | undefined {
  if (jsonDepthExceeds(schema, 32)) return 'its input schema nests deeper than 32 levels';
  const bytes = utf8Length(JSON.stringify(schema));
  if (bytes > LIMITS.mcpSchemaBytes) return `its input schema is ${bytes} bytes, over the limit of ${LIMITS.mcpSchemaBytes}`;
  const pattern = badPattern(schema);
  if (pattern !== undefined) {
    return `its input schema has a pattern that cannot be used: ${truncateBytes(pattern.pattern, 200)} (${truncateBytes(pattern.problem, 300)})`;
  }
  const applied = checkJsonSchema(schema, {});
  if (!applied.ok && applied.problems.some((p) => p.startsWith("the tool's schema could not be applied"))) return applied.problems[0];
  return undefined;
}

/**
 * The first `pattern` (or `patternProperties` key) that the validator could not run, as it runs them: by RE2, within
 * its budget (src/tools/schema-patterns.ts), so that no pattern of a server's can hold the workflow that checks a
 * model's arguments against it.
 */
function badPattern(value: unknown): { pattern: string; problem: string } | undefined {
  const size = { total: 0 };
  const stack = [value];
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    const candidates = [
      ...(typeof record.pattern === 'string' ? [record.pattern] : []),
      ...(record.patternProperties && typeof record.patternProperties === 'object' ? Object.keys(record.patternProperties) : []),
    ];
    for (const pattern of candidates) {
      const problem = linearPatternProblem(pattern, size);
      if (problem) return { pattern, problem };
    }
    stack.push(...Object.values(record));
  }
  return undefined;
}
