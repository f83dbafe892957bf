/** The agents this worker serves, by name. Add yours here. */
import type { AgentDefinition } from './define-agent.js';
import { coordinatorAgent, researcherAgent } from './coordinator.js';
import { demoAgent } from './demo.js';

export type AgentRegistry = Readonly<Record<string, AgentDefinition>>;

export const agents: AgentRegistry = Object.fromEntries([demoAgent, coordinatorAgent, researcherAgent].map((agent) => [agent.name, agent]));
