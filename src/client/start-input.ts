/**
 * What a client checks before it starts a run, so the caller hears at once, in the run's own words
 * (agent-workflow.ts), what the run would refuse: a key named `__proto__`, the input's shape, a carried state (only a run's own chain hands
 * one over), and the context against the agent's schema when the client knows the agent. Also what the run would take
 * but could never match: a requester or an approver entry that names no one (src/policy/approver-entries.ts); and a
 * policy too large to carry on (contract/run-policy-size.ts). A run
 * started straight through Temporal skips this; its `requestedBy` is then only as good as its starter's word, as
 * without a signed request token it always is (src/workflows/proven-requester.ts).
 */
import { WorkflowExecutionAlreadyStartedError, type WorkflowStartOptions } from '@temporalio/client';
import { checkContext, contextRefusal, type ContextSchema } from '../agents/context-schema.js';
import { blankPromptProblem } from '../bounds/blank-text.js';
import { startInputDepthProblem } from '../bounds/json-depth.js';
import { protoKeyRefusal } from '../bounds/proto-keys.js';
import { truncateChars, utf8Length } from '../bounds/truncate.js';
import { TEMPORAL_ID_MAX_BYTES } from '../contract/limits.js';
import { HitlAgent, HitlStatus } from '../contract/search-attributes.js';
import { revealHidden } from '../contract/hidden-characters.js';
import { runPolicyTooLarge } from '../contract/run-policy-size.js';
import { InvalidRunInputError } from '../errors.js';
import { throwNamingProblems } from '../policy/approver-entries.js';
import { AgentWorkflowInput, CARRY_FROM_CALLER, type AgentWorkflowArgs } from '../schemas/agent-workflow-input.js';
import type { DecisionSigner } from '../signing/sign-decision.js';
import { signRequestToken } from '../signing/sign-request.js';
import { inputProblems } from './input-problems.js';
import { RunIdRefusedError } from './run-errors.js';

/**
 * Temporal takes workflow ids of up to TEMPORAL_ID_MAX_BYTES by default (`limit.maxIDLength`); a run's own children
 * add to its id (`<run>/<call>` for a sub-agent, `<run>/webhooks-<n>`), so a run's id leaves them room.
 */
const MAX_RUN_ID_BYTES = TEMPORAL_ID_MAX_BYTES - 100;

/**
 * Why a caller's run id cannot be used, if it cannot: Temporal would refuse it without a reason (blank, too long), or
 * it would hide what it is, or it holds a `/`, which names the workflows runs start themselves (`<run>/<call>` for a
 * sub-agent, `<run>/webhooks-<n>`) and the store's (`hitl-store/<namespace>`): a run at such an id would take a
 * sub-agent's place, or a user's store, whose writes would then fail.
 */
export function runIdProblem(workflowId: string): string | undefined {
  if (workflowId.trim() === '') return 'it is blank';
  if (utf8Length(workflowId) > MAX_RUN_ID_BYTES) return `it is longer than ${MAX_RUN_ID_BYTES} bytes`;
  if (revealHidden(workflowId) !== workflowId)
    return `it holds a character that hides or rewrites text (${revealHidden(workflowId).slice(0, 200)})`;
  if (workflowId.includes('/')) return "it holds a '/', which names the workflows runs start themselves (sub-agents) and the store's";
  return undefined;
}

/** What the client knows of the agents the workers serve: enough to refuse a context that does not fit. */
export type KnownAgents = Readonly<Record<string, { contextSchema?: ContextSchema }>>;

/** What a caller may start a run with: the workflow's input, without what only the run itself sets. */
export type StartInput = Omit<AgentWorkflowArgs, 'carry'>;

/** The error a start at a taken id fails with, said as a refusal of the id; any other goes on as it is. */
export function refuseTakenId(workflowId: string) {
  return (err: unknown): never => {
    if (err instanceof WorkflowExecutionAlreadyStartedError) throw new RunIdRefusedError(workflowId, 'a run with this id is already open');
    throw err;
  };
}

/** @param workflowId the id the caller chose for the run, if any (runIdProblem) */
export function checkStartInput(input: StartInput, agents: KnownAgents | undefined, workflowId?: string): AgentWorkflowInput {
  const idProblem = workflowId === undefined ? undefined : runIdProblem(workflowId);
  if (idProblem) throw new RunIdRefusedError(workflowId!, idProblem);
  // Before anything walks it by recursion, as the workflow refuses it (start-input-refusal.ts).
  const tooDeep = startInputDepthProblem(input);
  if (tooDeep) throw new InvalidRunInputError(tooDeep);
  // Before the schema copies it: a `__proto__` key (JSON.parse keeps it as one, as `hitl start --context` read it)
  // would become the copy's prototype, and the run would start without it, and without a word.
  const protoKey = protoKeyRefusal('start input', input);
  if (protoKey) throw new InvalidRunInputError(protoKey);
  const checked = AgentWorkflowInput.safeParse(input);
  if (!checked.success) throw new InvalidRunInputError(inputProblems(checked.error));
  const parsed = checked.data;
  if (parsed.carry) throw new InvalidRunInputError(CARRY_FROM_CALLER);
  const blankPrompt = blankPromptProblem(parsed.prompt);
  if (blankPrompt) throw new InvalidRunInputError(blankPrompt);
  const tooLarge = runPolicyTooLarge(parsed);
  if (tooLarge) throw new InvalidRunInputError(tooLarge);
  throwNamingProblems(parsed);
  const schema = agents && Object.hasOwn(agents, parsed.agent) ? agents[parsed.agent]!.contextSchema : undefined;
  const context = checkContext(schema, parsed.context);
  if (!context.ok) throw new InvalidRunInputError(contextRefusal(parsed.agent, context.problems));
  return parsed;
}

/**
 * How a run is started: its static summary (shown in the Temporal UI) is the agent and the prompt, and what it
 * publishes first is set at once, so lists know the run before a worker has taken it.
 */
export function startOptions(parsed: AgentWorkflowInput, workflowId: string, taskQueue: string, signer: DecisionSigner | undefined) {
  return {
    args: [withRequestToken(parsed, workflowId, signer)],
    taskQueue,
    workflowId,
    staticSummary: truncateChars(`${parsed.agent}: ${parsed.prompt}`, 200),
    memo: { prompt: truncateChars(parsed.prompt, 500), ...(parsed.requestedBy && { requestedBy: parsed.requestedBy }) },
    typedSearchAttributes: [
      { key: HitlAgent, value: parsed.agent },
      { key: HitlStatus, value: 'Running' },
    ],
    staticDetails: parsed.requestedBy ? `requested by ${parsed.requestedBy}` : undefined,
  } satisfies WorkflowStartOptions;
}

/** `input` with a request token for its `requestedBy`, when a signer is at hand and the caller brought none. */
export function withRequestToken(input: AgentWorkflowInput, workflowId: string, signer: DecisionSigner | undefined): AgentWorkflowInput {
  if (!signer || !input.requestedBy || input.requestToken) return input;
  const { agent, prompt, requestedBy } = input;
  return { ...input, requestToken: signRequestToken(signer, { workflowId, agent, prompt, requestedBy, now: Date.now() }) };
}
