import type { AgentRegistry } from '../agents/registry.js';
import type { McpConnections } from '../mcp/mcp-connections.js';
import type { ToolImplementation } from '../tools/implement-tool.js';

/** What activities need from the process: registries and configuration, never from workflow input. */
export interface ActivityDeps {
  agents: AgentRegistry;
  tools: Readonly<Record<string, ToolImplementation>>;
  model: {
    /** @default the openai package's default (api.openai.com) */
    baseURL?: string;
    /** Read from the environment by the worker; never passed through workflow history. */
    apiKey?: string;
    defaultModel: string;
  };
  webhooks: { urls: string[]; secret?: string };
  /**
   * The worker's MCP connections (one per server), which its owner closes at shutdown.
   * @default a pool of the activities' own, never closed (stdio servers end with the process)
   */
  mcp?: McpConnections;
}
