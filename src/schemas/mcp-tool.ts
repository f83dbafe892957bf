/**
 * An MCP tool as a run records it when it starts (in the agent snapshot): what the model is shown, what calls and
 * edits are validated against, and what the gate reads. A paused run keeps these whatever the server offers later.
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { Duration } from './duration.js';

/** The MCP spec's tool annotations: hints from the server, used for the default gate and for retries. */
export const McpToolAnnotations = builtOnce('schemas/mcp-tool.McpToolAnnotations', () =>
  z.object({
    title: z.string().optional(),
    /** The tool does not change its environment: it runs without approval unless the policy says otherwise. */
    readOnlyHint: z.boolean().optional(),
    /** The tool may destroy or overwrite: it waits for approval unless the policy says otherwise. */
    destructiveHint: z.boolean().optional(),
    /** Calling it again with the same arguments has no further effect: its activity may retry. */
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  }),
);

export const McpTool = builtOnce('schemas/mcp-tool.McpTool', () =>
  z.object({
    /** `<server>__<tool>`: the name the model, the policy and approvers see. */
    name: z.string(),
    server: z.string(),
    /** The tool's own name on its server. */
    tool: z.string(),
    description: z.string(),
    /** JSON Schema of the arguments, as the server listed it. */
    inputSchema: z.record(z.string(), z.unknown()),
    annotations: McpToolAnnotations.optional(),
    /** Start-to-close timeout of one call, from the server's configuration. @default '2m' */
    timeout: Duration.optional(),
  }),
);

/** A tool the server offers that the run left out, and why (too large, a name the model API refuses…). */
export const McpSkippedTool = builtOnce('schemas/mcp-tool.McpSkippedTool', () => z.object({ name: z.string(), reason: z.string() }));

/** What the listing activity returns and the run records. */
export const McpListing = builtOnce('schemas/mcp-tool.McpListing', () =>
  z.object({
    tools: z.array(McpTool),
    skipped: z.array(McpSkippedTool),
  }),
);

export type McpToolAnnotations = z.infer<typeof McpToolAnnotations>;
export type McpTool = z.infer<typeof McpTool>;
export type McpSkippedTool = z.infer<typeof McpSkippedTool>;
export type McpListing = z.infer<typeof McpListing>;
