/** The agents this worker serves, by name: those in code (add yours here) and those of `HITL_AGENTS_FILE`. */
import type { AgentDefinition } from './define-agent.js';
import { loadAgentsFile } from './agents-file.js';
import { coordinatorAgent, researcherAgent } from './coordinator.js';
import { demoAgent } from './demo.js';

export type AgentRegistry = Readonly<Record<string, AgentDefinition>>;

export const agents: AgentRegistry = Object.fromEntries([demoAgent, coordinatorAgent, researcherAgent].map((agent) => [agent.name, agent]));

/**
 * The agents in code, and those of the agents file when one is configured (checked whole: an AgentsFileError
 * names every problem). The worker passes its environment, so a `${NAME}` an MCP server needs must be set.
 */
export function loadAgents(config: { HITL_AGENTS_FILE?: string }, env?: NodeJS.ProcessEnv): AgentRegistry {
  if (!config.HITL_AGENTS_FILE) return agents;
  const fromFile = loadAgentsFile(config.HITL_AGENTS_FILE, { known: Object.keys(agents), ...(env && { env }) });
  return { ...agents, ...Object.fromEntries(fromFile.map((agent) => [agent.name, agent])) };
}
