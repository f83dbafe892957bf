/**
 * The agent loop as a durable workflow: call the model; run the tool calls it asks for (gated ones wait for a
 * human); append the results in the model's order; repeat until it answers without tools or hits maxSteps.
 * Session runs then wait for the next message. Long runs continue as new with everything they know.
 */
import { ContinueAsNew, isCancellation } from '@temporalio/workflow';
import { z } from 'zod';
import { InvalidRunInputError } from '../errors/invalid-run-input-error.js';
import { StructuredOutputError } from '../errors/structured-output-error.js';
import { mergePolicy } from '../policy/merge-policy.js';
import { AgentWorkflowInput, type AgentWorkflowArgs } from '../schemas/agent-workflow-input.js';
import type { AgentResult } from '../schemas/run-state.js';
import { resolveAgent } from './activities.js';
import { AgentRun } from './agent-run.js';
import { continueAsNewDue, continueAsNewNow, whileContinuingAsNewIfDue } from './continue-as-new.js';
import { registerDecisionHandlers } from './decision-handlers.js';
import { openRunStream } from './run-stream.js';
import { modelTurn } from './model-turn.js';
import { registerSessionHandlers, waitForNextTurn } from './session.js';
import { settleCall } from './tool-execution.js';
import { correctionRequest, maxStepsMessage } from './tool-messages.js';

export async function agentWorkflow(rawInput: AgentWorkflowArgs): Promise<AgentResult> {
  const run = new AgentRun();
  openRunStream();
  registerDecisionHandlers(run);
  registerSessionHandlers(run);
  try {
    const parsed = AgentWorkflowInput.safeParse(rawInput);
    if (!parsed.success) throw new InvalidRunInputError(z.prettifyError(parsed.error));
    const input = parsed.data;
    if (input.carry) run.resume(input, input.carry);
    else {
      const snapshot = await resolveAgent(input.agent);
      run.begin(input, snapshot, mergePolicy(snapshot.policy, input.approval));
    }

    for (;;) {
      if (run.status !== 'awaiting_message') {
        const answer = await runTurn(run);
        run.lastOutput = answer.output;
        if (!input.session) return await finished(run, run.finish(answer.status, answer.output, answer.structured));
      }
      if ((await waitForNextTurn(run)) === 'ended') return await finished(run, run.finish('ended', run.lastOutput ?? ''));
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
  status: 'completed' | 'max_steps';
  output: string;
  structured?: unknown;
}

/** One turn of the ReAct loop, from the last user message to the model's answer. */
async function runTurn(run: AgentRun): Promise<Answer> {
  for (;;) {
    if (run.calls.length > 0) {
      await whileContinuingAsNewIfDue(run, Promise.all(run.calls.map((call) => settleCall(run, call))));
      run.closeStep();
    }
    if (continueAsNewDue(run)) await continueAsNewNow(run);
    if (run.turnSteps >= run.maxSteps) {
      const output = maxStepsMessage(run.maxSteps);
      run.messages.push({ role: 'assistant', content: output });
      return { status: 'max_steps', output };
    }
    const reply = await modelTurn(run);
    const toolCalls = reply.message.tool_calls ?? [];
    if (toolCalls.length > 0) {
      run.openStep(toolCalls);
      continue;
    }
    if (reply.structured && !reply.structured.ok) {
      if (run.corrected) throw new StructuredOutputError(run.agent, reply.structured.error);
      run.corrected = true;
      run.messages.push({ role: 'user', content: correctionRequest(reply.structured.error) });
      continue;
    }
    return {
      status: 'completed',
      output: reply.message.content ?? '',
      ...(reply.structured?.ok && { structured: reply.structured.value }),
    };
  }
}
