/**
 * What the outside reaches the run through: the queries, and the inputs (decisions, messages, the end of a session,
 * sub-agents' reports). None of them throws on input: a refused update is rejected by its validator, a refused signal
 * is recorded in the audit log, and either way the run is unchanged. Each handler ends by refreshing what the outside
 * sees.
 */
import { ApplicationFailure, currentUpdateInfo, log, setHandler } from '@temporalio/workflow';
import { z } from 'zod';
import {
  decideUpdate,
  decisionSignal,
  endSignal,
  endUpdate,
  messageSignal,
  messageUpdate,
  pendingApprovalQuery,
  pendingApprovalsQuery,
  interruptQuery,
  interruptionsQuery,
  listingsDueSignal,
  runStateQuery,
  toolsQuery,
} from '../contract/messages.js';
import type { DecisionInputShape } from '../contract/seed-decisions.js';
import { truncateBytes } from '../bounds/truncate.js';
import { undecodableMessage, undecodableReason } from '../contract/undecodable-payload.js';
import { DecisionRefusedError } from '../errors.js';
import { RunStateQueryOptions } from '../schemas/run-state.js';
import { toolSpecs } from '../tools/registry.js';
import type { AgentRun } from './agent-run.js';
import { planDecisions, type Plan, type PlanContext, type SigningContext } from './decision-plan.js';
import { shownAtRoot } from './shown-at-root.js';
import { PATCHES, takesPatch } from './patches.js';
import { schemaCheckMode } from './schema-check-mode.js';
import { extraArgumentsRefusal } from './one-argument.js';
import { withLiveApprovals } from './quorum-lapse.js';
import { applyPlan, recordRefusal, type Channel } from './run-decisions.js';
import { listedPending, pendingCall, runState, runTools } from './run-views.js';
import { langChainInterrupt, toolApprovalItems } from './seed-views.js';
import { checkEnd, checkMessage, queueMessage } from './session.js';
import { childApprovalsSignal } from './sub-agent-report.js';
import { takeChildReport } from './child-report-intake.js';
import { handedOverEventsQuery } from '../contract/handed-over-query.js';
import { sentReportQuery } from '../contract/sent-report-query.js';
import { modelCallMessagesQuery } from '../contract/model-call-messages-query.js';
import { workflowNow } from './workflow-clock.js';

/** The queries, from the run's first activation on: a run whose input is refused still answers them. */
export function registerQueries(run: AgentRun): void {
  setHandler(pendingApprovalsQuery, () => listedPending(run));
  setHandler(pendingApprovalQuery, (id: string) => (typeof id === 'string' ? pendingCall(run, id) : undefined));
  setHandler(interruptQuery, () => langChainInterrupt(listedPending(run)));
  setHandler(interruptionsQuery, () => toolApprovalItems(listedPending(run), run.agent));
  setHandler(runStateQuery, (options?: RunStateQueryOptions) => runState(run, runStateOptions(options)));
  setHandler(toolsQuery, () => runTools(run));
  setHandler(handedOverEventsQuery, (ids: string[]) =>
    Array.isArray(ids) ? run.notifications.handedOver(ids.filter((id) => typeof id === 'string')) : [],
  );
  setHandler(modelCallMessagesQuery, (hash: string) => run.sentMessages.hashed(hash));
  setHandler(sentReportQuery, (seq: number) =>
    takesPatch(PATCHES.reportsConfirmed) ? run.visibility.sentReports.digestOf(seq) : ('unconfirmable' as const),
  );
}

/** What changes the run from outside: decisions, messages, the end of a session, sub-agents' reports. */
export function registerInputs(run: AgentRun): void {
  // The validator's plan, for its handler: the SDK starts the handler right after the validator, in the same call and
  // with no workflow code in between (so against the same state), and a replay, which runs no validator, plans anew.
  let validated: { updateId: string; plan: Plan } | undefined;
  setHandler(
    decideUpdate,
    (input: DecisionInputShape, ...extra: unknown[]) => {
      const updateId = currentUpdateInfo()?.id;
      const plan = validated && validated.updateId === updateId ? validated.plan : planFor(run, input, extra);
      validated = undefined;
      // The validator already checked this input against this same state; a failure here would be a bug.
      if (!plan.ok) throw plan.error.toFailure();
      return guarded(run, () => ({ applied: applyPlan(run, plan.decisions, 'update', plan.input) }));
    },
    {
      validator: (input: DecisionInputShape, ...extra: unknown[]) => {
        const plan = planFor(run, input, extra);
        if (!plan.ok) throw plan.error.toFailure();
        validated = { updateId: currentUpdateInfo()!.id, plan };
      },
    },
  );
  setHandler(decisionSignal, (input: DecisionInputShape, ...extra: unknown[]) =>
    onSignal(run, 'decision', () => decideBySignal(run, input, extra)),
  );

  setHandler(messageUpdate, (input, ...extra: unknown[]) => guarded(run, () => ({ queued: queueMessage(run, input, extra) })), {
    validator: (input, ...extra: unknown[]) => void checkMessage(run, input, extra),
  });
  setHandler(messageSignal, (input, ...extra: unknown[]) => onSignal(run, 'message', () => queueMessage(run, input, extra)));
  const end = (input: unknown, extra: unknown[]) => {
    run.session.requestEnd(checkEnd(run, input, extra).reason);
    return { ending: true as const };
  };
  setHandler(endUpdate, (input, ...extra: unknown[]) => guarded(run, () => end(input, extra)), {
    validator: (input, ...extra: unknown[]) => checkEnd(run, input, extra),
  });
  setHandler(endSignal, (input, ...extra: unknown[]) => onSignal(run, 'end', () => end(input, extra)));
  // Whatever comes with it is ignored: at worst, a sender makes the run publish its listings early.
  setHandler(listingsDueSignal, () => run.visibility.releaseListings());

  setHandler(childApprovalsSignal, (raw, ...extra: unknown[]) => takeChildReport(run, raw, extra));
}

function decideBySignal(run: AgentRun, input: unknown, extra: unknown[]): void {
  const plan = planFor(run, input, extra);
  if (plan.ok) applyPlan(run, plan.decisions, 'signal', plan.input);
  else recordRefusal(run, plan.error, 'signal', input);
}

/** A decision's plan; one sent with more than its one argument is refused whole. */
function planFor(run: AgentRun, input: unknown, extra: unknown[]): Plan {
  const extraArguments = extraArgumentsRefusal('decision input', extra);
  if (extraArguments) return { ok: false, error: new DecisionRefusedError('malformed', extraArguments) };
  return planDecisions(input, planContext(run));
}

/** The runState query's options; junk is answered with zod's words for what is wrong, not its raw list of issues. */
function runStateOptions(raw: unknown): RunStateQueryOptions {
  // Options this worker could not decrypt (a client encrypting with a key id the worker lacks) say so, not "junk".
  const undecoded = undecodableReason(raw);
  if (undecoded !== undefined) {
    throw ApplicationFailure.create({
      type: 'InvalidQueryOptions',
      message: undecodableMessage('runState options', undecoded),
      nonRetryable: true,
    });
  }
  const parsed = RunStateQueryOptions.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  throw ApplicationFailure.create({
    type: 'InvalidQueryOptions',
    message: `runState options: ${truncateBytes(z.prettifyError(parsed.error), 2000)}`,
    nonRetryable: true,
  });
}

function planContext(run: AgentRun): PlanContext {
  const forwarded = run.children.forwardedByShownId();
  return {
    pending: takesPatch(PATCHES.quorumApprovalsLapse) ? withLiveApprovals(run, run.pending(), workflowNow()) : run.pending(),
    decided: { get: (id: string) => forwarded.get(id) ?? run.book.decidedEarlier(id) },
    available: run.started ? run.snapshot.tools : [],
    specs: toolSpecs,
    mcpTools: run.started ? (run.snapshot.mcpTools ?? []) : [],
    ...(run.started && { policy: run.policy }),
    ...(run.input?.requestedBy && { requestedBy: run.input.requestedBy }),
    ...(run.started && { facts: { context: run.input.context ?? {}, requestedBy: run.input.requestedBy, agent: run.agent } }),
    subAgentTools: run.children.tools(),
    ...(run.started && run.snapshot.signedDecisions && { signing: signingContext(run, run.snapshot.signedDecisions) }),
    refusesUncheckedTokens: takesPatch(PATCHES.tokensNeedSigners),
    ...(takesPatch(PATCHES.tokensPassToOwners) && { tokensCheckedByOwner: run.children.tokensChecked() }),
    refusesUnknownEditArgs: takesPatch(PATCHES.editsKeepEveryArg),
    refusesProtoKeys: takesPatch(PATCHES.protoKeysRefused),
    refusesUnplainArgs: takesPatch(PATCHES.toolArgumentsPlainJson),
    schemaChecks: schemaCheckMode(),
    gatesFailSafe: takesPatch(PATCHES.gatesFailSafe),
    gatesFoldText: takesPatch(PATCHES.gatesFoldText),
    refusesBlankUserMessages: takesPatch(PATCHES.blankUserMessagesRefused),
    proposersMayWithdraw: takesPatch(PATCHES.proposersMayWithdraw),
    deadlinesApproveNoProposal: takesPatch(PATCHES.deadlinesApproveNoProposal),
    escalatedMayEdit: takesPatch(PATCHES.escalatedMayEdit),
    refusesMalformedNames: takesPatch(PATCHES.namesChecked),
    refusesHiddenNames: takesPatch(PATCHES.hiddenNamesRefused),
    refusesOpposedAlways: takesPatch(PATCHES.opposedAlwaysRefused),
  };
}

/** Tokens bind to the top-level run: a sub-agent's calls are shown there as `<its path>/<id>`. */
function signingContext(run: AgentRun, signed: NonNullable<AgentRun['snapshot']['signedDecisions']>): SigningContext {
  return {
    required: signed.required,
    ...(signed.trust && { trust: signed.trust }),
    now: workflowNow(),
    ...shownAtRoot(),
    usedTokenIds: run.usedTokens.ids,
  };
}

/** An update handler's work, then the refresh; a bug surfaces as the update's failure, never the task's. */
function guarded<T>(run: AgentRun, work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof ApplicationFailure) throw err;
    throw ApplicationFailure.create({ type: 'InternalError', message: String(err), nonRetryable: true });
  } finally {
    run.refresh();
  }
}

/** A signal handler's work, then the refresh. A signal that cannot be taken is logged (decisions: audited). */
function onSignal(run: AgentRun, name: string, work: () => unknown): void {
  try {
    work();
  } catch (err) {
    log.warn(`${name} signal refused`, { reason: err instanceof Error ? err.message : String(err) });
    if (name === 'decision') recordRefusal(run, new DecisionRefusedError('internal', String(err)), 'signal' as Channel, undefined);
  } finally {
    run.refresh();
  }
}
