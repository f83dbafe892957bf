import { checkContext, contextJsonSchema, contextRefusal } from '../agents/context-schema.js';
import { InvalidRunInputError, ModelHookError, UnknownAgentError } from '../errors.js';
import { hookUse, Interrupts, selectorUse } from '../schemas/agent-options.js';
import { ourTools } from '../agents/define-agent.js';
import type { AgentSnapshot } from '../schemas/agent-snapshot.js';
import { toolSpecs } from '../tools/registry.js';
import type { ActivityDeps } from './activity-deps.js';

/** The agent as a run records it, and the run's context as checked against the agent's schema. */
export type ResolvedAgent = AgentSnapshot & { checkedContext?: Record<string, unknown> };

/**
 * Recorded in history as a local activity result, so a paused run keeps the agent it started with. The run's
 * context is checked here, against the agent's own schema (zod or JSON Schema), whoever started the run.
 */
export function createResolveAgent({ agents, model, webhooks, signedDecisions, modelHooks }: ActivityDeps) {
  return {
    async resolveAgent(name: string, context?: Record<string, unknown>): Promise<ResolvedAgent> {
      const agent = Object.hasOwn(agents, name) ? agents[name] : undefined;
      if (!agent) throw new UnknownAgentError(name, Object.keys(agents)).toFailure();
      const checked = checkContext(agent.contextSchema, context);
      if (!checked.ok) throw new InvalidRunInputError(contextRefusal(name, checked.problems)).toFailure();
      const beforeModel = agent.beforeModel === undefined ? undefined : hookUse(agent.beforeModel);
      const afterModel = agent.afterModel === undefined ? undefined : hookUse(agent.afterModel);
      for (const [kind, use] of [
        ['beforeModel', beforeModel],
        ['afterModel', afterModel],
      ] as const) {
        if (use?.kind === 'activity' && !Object.hasOwn(modelHooks?.[kind] ?? {}, use.name)) {
          throw new ModelHookError(kind, use.name, 'no activity hook of that name is registered on this worker (modelHooks)').toFailure();
        }
      }
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
        ...(beforeModel && { beforeModel }),
        ...(afterModel && { afterModel }),
        ...(agent.modelSelector && { modelSelector: selectorUse(agent.modelSelector) }),
        ...(agent.interrupt && { interrupt: Interrupts.parse(agent.interrupt) }),
        ...(agent.toolErrors && { toolErrors: agent.toolErrors }),
        ...(agent.contextSchema && { contextSchema: contextJsonSchema(agent.contextSchema), checkedContext: checked.value }),
        ...(Object.keys(agent.mcpServers).length > 0 && { mcpServers: Object.keys(agent.mcpServers) }),
      };
    },
  };
}
