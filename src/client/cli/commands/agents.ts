/** `hitl agents`: the agents in code and in HITL_AGENTS_FILE, as this machine's configuration sees them. */
import { agentViews } from '../../../agents/agent-views.js';
import { loadAgents } from '../../../agents/registry.js';
import { readEnvConfig } from '../../../config.js';
import { print, table } from '../output.js';
import type { RegisterCommand } from './context.js';

export const registerAgentCommand: RegisterCommand = (program, ctx) => {
  program
    .command('agents')
    .description('list the agents: those in code and those of the agents file (HITL_AGENTS_FILE)')
    .action(() => {
      const agents = agentViews(loadAgents(readEnvConfig()));
      print(ctx.out(), agents, () =>
        table(
          ['agent', 'from', 'model', 'tools', 'MCP servers'],
          agents.map((a) => [a.name, a.source, a.model ?? '(default)', a.tools.join(' '), a.mcpServers.join(' ')]),
        ),
      );
    });
};
