import type { AgentRegistry } from '../agents/registry.js';
import type { DecisionTrust } from '../signing/trust.js';
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
  /** Whom new runs trust to sign decisions, and whether agents that do not say require them. */
  signedDecisions?: { trust?: DecisionTrust; requiredByDefault: boolean };
}
