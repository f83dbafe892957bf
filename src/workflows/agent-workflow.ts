/**
 * The agent loop as a durable workflow, as README's flow says it: call the model; run the tool calls it asks for
 * (gated ones wait for a human); append the results in the model's order; repeat until it answers without tools
 * or hits maxSteps. Session runs then wait for the next message. Long runs continue as new with all they know.
 *
 * Every handler (run-handlers.ts) is registered before the first await, so nothing sent early is lost: the queries at
 * once, the inputs once the run has taken its input and restored what it carried.
 */
import { ContinueAsNew, isCancellation, workflowInfo } from '@temporalio/workflow';
import type { WorkflowStreamState } from '@temporalio/workflow-streams/workflow';
import { z } from 'zod';
import { blankPromptProblem } from '../bounds/blank-text.js';
import { InvalidRunInputError, StructuredOutputError } from '../errors.js';
import { AgentWorkflowInput, CARRY_FROM_CALLER, type AgentWorkflowArgs } from '../schemas/agent-workflow-input.js';
import type { AgentResult } from '../schemas/run-state.js';
import { throwNamingProblems } from '../policy/approver-entries.js';
import { checkRunBreakpoints } from '../policy/tighten-breakpoints.js';
import { resolveAgent } from './activity-options.js';
import { AgentRun } from './agent-run.js';
import { carriedWithinChain } from './carry-origin.js';
import { continueAsNewDue, continueAsNewNow, whileContinuingAsNewIfDue } from './continue-as-new.js';
import { PATCHES, takePatchesAtStart, takesPatch } from './patches.js';
import { startInputRefusal } from './start-input-refusal.js';
import { openRunEvents } from './run-events.js';
import { runPolicy } from './run-policy.js';
import { modelTurn } from './model-turn.js';
import { openStep } from './open-step.js';
import { provenRequester } from './proven-requester.js';
import { registerInputs, registerQueries } from './run-handlers.js';
import { withMcpTools } from './mcp-tools.js';
import { waitForNextTurn } from './session.js';
import { settleStepCalls } from './step-calls.js';
import { correctionRequest, maxStepsMessage } from './tool-messages.js';
import { workflowNow } from './workflow-clock.js';

export async function agentWorkflow(rawInput: AgentWorkflowArgs, ...extra: unknown[]): Promise<AgentResult> {
  // Before anything else, and before any local activity: see src/workflows/patches.ts.
  takePatchesAtStart();
  // The clock of the run's first task (a reset to a later task replays it): a request token is checked against it.
  const startedAt = workflowNow();
  // Read before the input is validated: the stream's handlers must be registered before the first await.
  const rawCarry = (rawInput as { carry?: { stream?: WorkflowStreamState } } | null | undefined)?.carry;
  const carryFromChain = carriedWithinChain(rawCarry);
  const run = new AgentRun(openRunEvents(carryFromChain ? rawCarry?.stream : undefined));
  registerQueries(run);
  // The SDK hands a signal or update that came with this first task to its handler as the handler is registered: a
  // continued run takes them once it has restored what it carried (patch inputsAfterSetup), never before.
  const inputsAfterSetup = takesPatch(PATCHES.inputsAfterSetup);
  if (!inputsAfterSetup) registerInputs(run);
  try {
    const refused = startInputRefusal(rawInput, extra);
    if (refused) throw new InvalidRunInputError(refused);
    // Before the schema reads it: a caller's carry is refused as what it is, however it is shaped.
    if (rawCarry !== undefined && !carryFromChain) throw new InvalidRunInputError(CARRY_FROM_CALLER);
    const parsed = AgentWorkflowInput.safeParse(rawInput);
    if (!parsed.success) throw new InvalidRunInputError(z.prettifyError(parsed.error));
    const input = parsed.data;
    // Held to the naming rule however the start came (a continued run carries its chain's): a start sent straight to
    // Temporal, or a child started by another workflow, skips the client's check (patch startNamesChecked).
    if (!input.carry && takesPatch(PATCHES.startNamesChecked)) throwNamingProblems(input);
    const blankPrompt = !input.carry && takesPatch(PATCHES.blankUserMessagesRefused) ? blankPromptProblem(input.prompt) : undefined;
    if (blankPrompt) throw new InvalidRunInputError(blankPrompt);
    run.accept(input);
    if (input.carry) {
      // Watchers follow the chain, and see a new execution only in the Temporal UI unless the stream says so: first,
      // before the status this run publishes as it resumes, which would otherwise read as a repeat.
      if (takesPatch(PATCHES.continuedSaysSo)) run.events.continued(workflowInfo().runId, input.carry.step);
      run.resume(input, input.carry);
    }
    if (inputsAfterSetup) registerInputs(run);
    if (!input.carry) {
      // The context comes back checked against the agent's schema (with its defaults): tools and hooks get that.
      const { checkedContext, ...resolved } = await resolveAgent(input.agent, input.context);
      const snapshot = await withMcpTools(resolved);
      const typed = takesPatch(PATCHES.typedApprovers);
      const policy = runPolicy(snapshot.name, snapshot.policy, input.approval, typed, takesPatch(PATCHES.rejectOnlyReviewers));
      if (takesPatch(PATCHES.breakpointsTightenOnly)) checkRunBreakpoints(snapshot, input.interrupt, policy.onTimeout, typed);
      // The run keeps who asked, as proven, and never the token: continue-as-new carries the requester on.
      const { requestToken: _token, requestedBy: _claimed, ...rest } = input;
      const requestedBy = provenRequester(input, snapshot, policy, startedAt);
      run.begin({ ...rest, ...(requestedBy && { requestedBy }), ...(checkedContext && { context: checkedContext }) }, snapshot, policy);
    }

    for (;;) {
      if (!run.awaitingMessage) {
        const answer = await runTurn(run);
        run.noteAnswer(answer.output);
        // A stopped run ends, session or not.
        if (!input.session || answer.status === 'Stopped') return await finished(run, run.finish(answer));
      }
      const next = await waitForNextTurn(run);
      if (next !== 'turn') return await finished(run, run.finish({ status: 'Ended', output: run.lastOutput ?? '', ended: next }));
    }
  } catch (err) {
    if (err instanceof ContinueAsNew) throw err;
    const failure = run.fail(err);
    if (!isCancellation(err)) await run.notifications.flush();
    throw failure;
  }
}

async function finished(run: AgentRun, result: AgentResult): Promise<AgentResult> {
  await run.notifications.flush();
  return result;
}

interface Answer {
  status: 'Completed' | 'MaxSteps' | 'Stopped';
  output: string;
  structured?: unknown;
}

/** One turn of the ReAct loop, from the last user message to the model's answer. */
async function runTurn(run: AgentRun): Promise<Answer> {
  // Calls carried over continue-as-new have our ids if the run had begun handing them out.
  let ownIds = run.book.lastCallNumber > 0;
  for (;;) {
    // Calls carried over continue-as-new (or just asked for) are settled before the model is called again: the
    // model must see every call answered, in the order it asked.
    if (run.book.calls.length > 0) {
      await whileContinuingAsNewIfDue(run, settleStepCalls(run, ownIds));
      run.closeStep();
      run.refresh('running the agent');
    }
    if (continueAsNewDue(run)) await continueAsNewNow(run);
    if (run.turnSteps >= run.maxSteps) {
      const output = maxStepsMessage(run.maxSteps);
      run.transcript.append({ role: 'assistant', content: output });
      return { status: 'MaxSteps', output };
    }
    const turn = await modelTurn(run);
    if (turn.kind === 'again') continue;
    if (turn.kind === 'stop') return { status: 'Stopped', output: turn.output };
    ownIds = turn.ownIds;
    if (turn.intake.calls.length > 0) {
      openStep(run, turn.intake, turn.ownIds);
      run.refresh('running tools');
      continue;
    }
    const structured = turn.structured;
    if (structured && !structured.ok) {
      if (run.corrected) throw new StructuredOutputError(run.agent, structured.error);
      run.askForCorrection(correctionRequest(structured.error));
      continue;
    }
    return {
      status: 'Completed',
      output: turn.intake.message.content ?? '',
      ...(structured?.ok && { structured: structured.value }),
    };
  }
}
