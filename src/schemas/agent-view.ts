import { z } from 'zod';

/** An agent as `GET /api/agents` and `hitl agents` show it: what it may do, never how its servers are reached. */
export const AgentView = z.object({
  name: z.string(),
  /** Where it is defined: in code, or in the agents file (HITL_AGENTS_FILE). */
  source: z.enum(['code', 'file']),
  /** Absent when the agent uses the worker's default model. */
  model: z.string().optional(),
  /** As declared: tool names and patterns (`fs__*`). */
  tools: z.array(z.string()),
  /** Names of the MCP servers its tools may come from. */
  mcpServers: z.array(z.string()),
  maxSteps: z.number().int(),
  /** Its final answer must match a response format. */
  structuredOutput: z.boolean(),
});

export type AgentView = z.infer<typeof AgentView>;
