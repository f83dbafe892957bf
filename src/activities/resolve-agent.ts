import { ourTools } from '../agents/define-agent.js';
import { UnknownAgentError } from '../errors.js';
import type { AgentSnapshot } from '../schemas/agent-snapshot.js';
import { toolSpecs } from '../tools/registry.js';
import type { ActivityDeps } from './activity-deps.js';

/** Recorded in history as a local activity result, so a paused run keeps the agent it started with. */
export function createResolveAgent({ agents, model, webhooks, signedDecisions }: ActivityDeps) {
  return {
    async resolveAgent(name: string): Promise<AgentSnapshot> {
      const agent = Object.hasOwn(agents, name) ? agents[name] : undefined;
      if (!agent) throw new UnknownAgentError(name, Object.keys(agents)).toFailure();
      const tools = ourTools(agent);
      return {
        name: agent.name,
        instructions: agent.instructions,
        model: agent.model ?? model.defaultModel,
        tools,
        policy: agent.approval,
        maxSteps: agent.maxSteps,
        structuredOutput: agent.responseFormat !== undefined,
        notify: webhooks.urls.length > 0,
        describedTools: tools.filter((name) => toolSpecs[name]?.describe === true),
        precheckedTools: tools.filter((name) => toolSpecs[name]?.precheck === true),
        ...(signedDecisions && {
          signedDecisions: {
            required: agent.requireSignedDecisions ?? signedDecisions.requiredByDefault,
            ...(signedDecisions.trust && { trust: signedDecisions.trust }),
          },
        }),
        ...(Object.keys(agent.mcpServers).length > 0 && { mcpServers: Object.keys(agent.mcpServers) }),
      };
    },
  };
}
