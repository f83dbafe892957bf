/**
 * What a client checks before it starts a run, so the caller hears at once, in the run's own words
 * (agent-workflow.ts), what the run would refuse: a key named `__proto__`, the input's shape, a carried state (only a run's own chain hands
 * one over), and the context against the agent's schema when the client knows the agent. Also what the run would take
 * but could never match: a requester or an approver entry that names no one (src/policy/approver-entries.ts); and a
 * policy too large to carry on (contract/run-policy-size.ts). A run
 * started straight through Temporal skips this; its `requestedBy` is then only as good as its starter's word, as
 * without a signed request token it always is (src/workflows/proven-requester.ts).
 */
import { checkContext, contextRefusal, type ContextSchema } from '../agents/context-schema.js';
import { protoKeyRefusal } from '../bounds/proto-keys.js';
import { runPolicyTooLarge } from '../contract/run-policy-size.js';
import { InvalidRunInputError } from '../errors.js';
import { throwNamingProblems } from '../policy/approver-entries.js';
import { AgentWorkflowInput, CARRY_FROM_CALLER, type AgentWorkflowArgs } from '../schemas/agent-workflow-input.js';
import type { DecisionSigner } from '../signing/sign-decision.js';
import { signRequestToken } from '../signing/sign-request.js';
import { inputProblems } from './input-problems.js';

/** What the client knows of the agents the workers serve: enough to refuse a context that does not fit. */
export type KnownAgents = Readonly<Record<string, { contextSchema?: ContextSchema }>>;

/** What a caller may start a run with: the workflow's input, without what only the run itself sets. */
export type StartInput = Omit<AgentWorkflowArgs, 'carry'>;

export function checkStartInput(input: StartInput, agents: KnownAgents | undefined): AgentWorkflowInput {
  // Before the schema copies it: a `__proto__` key (JSON.parse keeps it as one, as `hitl start --context` read it)
  // would become the copy's prototype, and the run would start without it, and without a word.
  const protoKey = protoKeyRefusal('start input', input);
  if (protoKey) throw new InvalidRunInputError(protoKey);
  const checked = AgentWorkflowInput.safeParse(input);
  if (!checked.success) throw new InvalidRunInputError(inputProblems(checked.error));
  const parsed = checked.data;
  if (parsed.carry) throw new InvalidRunInputError(CARRY_FROM_CALLER);
  const tooLarge = runPolicyTooLarge(parsed);
  if (tooLarge) throw new InvalidRunInputError(tooLarge);
  throwNamingProblems(parsed);
  const schema = agents && Object.hasOwn(agents, parsed.agent) ? agents[parsed.agent]!.contextSchema : undefined;
  const context = checkContext(schema, parsed.context);
  if (!context.ok) throw new InvalidRunInputError(contextRefusal(parsed.agent, context.problems));
  return parsed;
}

/** `input` with a request token for its `requestedBy`, when a signer is at hand and the caller brought none. */
export function withRequestToken(input: AgentWorkflowInput, workflowId: string, signer: DecisionSigner | undefined): AgentWorkflowInput {
  if (!signer || !input.requestedBy || input.requestToken) return input;
  const { agent, prompt, requestedBy } = input;
  return { ...input, requestToken: signRequestToken(signer, { workflowId, agent, prompt, requestedBy, now: Date.now() }) };
}
