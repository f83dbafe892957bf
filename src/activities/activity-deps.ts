import type { AgentRegistry } from '../agents/registry.js';
import type { ActivityModelHooks } from '../hooks/hook-types.js';
import type { ReviewRule } from '../reviewers/rules.js';
import type { DecisionTrust } from '../signing/trust.js';
import type { McpConnections } from '../mcp/mcp-connections.js';
import type { ToolImplementation } from '../tools/implement-tool.js';
import type { TokenBatching } from './token-publisher.js';

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
    /**
     * When set, model calls stream (`stream: true`) and publish their text to the run's Workflow Stream in
     * batches; unset fields take DEFAULT_TOKEN_BATCHING. @default undefined (whole replies, nothing published)
     */
    streaming?: Partial<TokenBatching>;
    /** Bytes of JSON of its runs' latest calls' messages the worker keeps. @default DEFAULT_SENT_MESSAGES_BYTES (64 MiB) */
    sentMessagesBytes?: number;
  };
  webhooks: { urls: string[]; secret?: string };
  /** Rule reviewers by name. @default the rules in src/reviewers/rules.ts */
  reviewRules?: Readonly<Record<string, ReviewRule>>;
  /** Whom new runs trust to sign decisions, and whether agents that do not say require them. */
  signedDecisions?: { trust?: DecisionTrust; requiredByDefault: boolean };
  /** Model hooks that need I/O, run as activities; agents name them as `{activity: '<name>'}`. */
  modelHooks?: ActivityModelHooks;
  /**
   * The worker's MCP connections (one per server), which its owner closes at shutdown.
   * @default a pool of the activities' own, never closed (stdio servers end with the process)
   */
  mcp?: McpConnections;
}
