/**
 * Queries, the `decide` update and the `decision` signal. Registered before the first await, so nothing sent
 * early is lost; until the agent is resolved there is simply nothing pending.
 */
import { setHandler } from '@temporalio/workflow';
import type { DecideInput } from '../schemas/decision.js';
import { RunStateQueryOptions } from '../schemas/run-state.js';
import type { AgentRun } from './agent-run.js';
import { planDecisions } from './decision-plan.js';
import { decideUpdate, decisionSignal, pendingApprovalsQuery, runStateQuery } from '../contract/messages.js';
import { childApprovalsSignal } from './sub-agent-report.js';
import { applyPlan, mirrorChild, recordRefusal } from './run-decisions.js';

export function registerDecisionHandlers(run: AgentRun): void {
  setHandler(pendingApprovalsQuery, () => run.pendingApprovals());
  setHandler(runStateQuery, (options?: RunStateQueryOptions) => run.state(RunStateQueryOptions.parse(options ?? {})));

  setHandler(
    decideUpdate,
    (input: DecideInput) => {
      const plan = planDecisions(input, run.planContext());
      // The validator already checked this input against this same state; a failure here would be a bug.
      if (!plan.ok) throw plan.error.toFailure();
      return { applied: applyPlan(run, plan.decisions, 'update', plan.input) };
    },
    {
      validator: (input: DecideInput) => {
        const plan = planDecisions(input, run.planContext());
        if (!plan.ok) throw plan.error.toFailure();
      },
    },
  );

  setHandler(childApprovalsSignal, (report) => mirrorChild(run, report));

  setHandler(decisionSignal, (input: DecideInput) => {
    const plan = planDecisions(input, run.planContext());
    if (plan.ok) applyPlan(run, plan.decisions, 'signal', plan.input);
    else recordRefusal(run, plan.error, 'signal', input);
  });
}
