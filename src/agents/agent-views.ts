import type { AgentView } from '../schemas/agent-view.js';
import type { AgentRegistry } from './registry.js';

/** The agents of a registry as the API and the CLI list them, by name. */
export function agentViews(registry: AgentRegistry): AgentView[] {
  return Object.values(registry)
    .map((agent) => ({
      name: agent.name,
      source: agent.declaredIn ? ('file' as const) : ('code' as const),
      ...(agent.model && { model: agent.model }),
      tools: [...agent.tools],
      mcpServers: Object.keys(agent.mcpServers),
      maxSteps: agent.maxSteps,
      structuredOutput: agent.responseFormat !== undefined,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
