import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { DecisionTrust } from '../signing/trust.js';
import { Interrupts, ModelHookUse, ModelSelectorUse } from './agent-options.js';
import { ApprovalPolicy } from './approval-policy.js';
import { OnToolError } from './tool-errors.js';
import { McpSkippedTool, McpTool } from './mcp-tool.js';

/**
 * The agent as it was when the run started, recorded in history by a local activity. A paused run keeps the
 * policy it started under, whatever is deployed later.
 */
export const AgentSnapshot = builtOnce('schemas/agent-snapshot.AgentSnapshot', () =>
  z.object({
    name: z.string(),
    instructions: z.string(),
    model: z.string(),
    tools: z.array(z.string()),
    policy: ApprovalPolicy,
    maxSteps: z.number().int().positive(),
    /** The agent declares a `responseFormat`; the model activity validates against it. */
    structuredOutput: z.boolean(),
    /** Webhooks are configured, so approval events are worth a `notify` activity. */
    notify: z.boolean(),
    /** Tools whose implementation describes their calls for approvers (absent in runs started before it existed). */
    describedTools: z.array(z.string()).optional(),
    /** Tools whose implementation prechecks the world before a call runs (absent in runs started before prechecks). */
    precheckedTools: z.array(z.string()).optional(),
    /**
     * Signed decisions: whom the run trusts to sign them (recorded here, so key rotation never breaks a paused run)
     * and whether every decision must carry a token. Absent in runs started before signed decisions existed.
     */
    signedDecisions: z.object({ required: z.boolean(), trust: DecisionTrust.optional() }).optional(),
    /** LangGraph's agent options (src/schemas/agent-options.ts); absent in runs started before they existed. */
    beforeModel: ModelHookUse.optional(),
    afterModel: ModelHookUse.optional(),
    modelSelector: ModelSelectorUse.optional(),
    interrupt: Interrupts.optional(),
    toolErrors: z.record(z.string(), OnToolError).optional(),
    /** The JSON Schema the run's context was checked against. */
    contextSchema: z.record(z.string(), z.unknown()).optional(),
    /** The MCP servers the agent declares, by name: the run lists their tools when it starts. */
    mcpServers: z.array(z.string()).optional(),
    /** The MCP tools listed when the run started (their names are also in `tools`): a paused run keeps these. */
    mcpTools: z.array(McpTool).optional(),
    /** Tools the servers offered that the run left out, and why. */
    mcpSkipped: z.array(McpSkippedTool).optional(),
  }),
);

export type AgentSnapshot = z.infer<typeof AgentSnapshot>;
