/**
 * The agent loop as a durable workflow: call the model; run the tool calls it asks for (gated ones wait for a
 * human); append the results in the model's order; repeat until it answers without tools or hits maxSteps.
 */
import { z } from 'zod';
import { InvalidRunInputError } from '../errors/invalid-run-input-error.js';
import { StructuredOutputError } from '../errors/structured-output-error.js';
import { mergePolicy } from '../policy/merge-policy.js';
import { AgentWorkflowInput } from '../schemas/agent-workflow-input.js';
import type { AgentResult } from '../schemas/run-state.js';
import { resolveAgent } from './activities.js';
import { AgentRun } from './agent-run.js';
import { registerDecisionHandlers } from './decision-handlers.js';
import { modelTurn } from './model-turn.js';
import { settleCall } from './tool-execution.js';
import { correctionRequest, maxStepsMessage } from './tool-messages.js';

export async function agentWorkflow(rawInput: AgentWorkflowInput): Promise<AgentResult> {
  const run = new AgentRun();
  registerDecisionHandlers(run);
  try {
    const parsed = AgentWorkflowInput.safeParse(rawInput);
    if (!parsed.success) throw new InvalidRunInputError(z.prettifyError(parsed.error));
    const input = parsed.data;
    const snapshot = await resolveAgent(input.agent);
    run.begin(input, snapshot, mergePolicy(snapshot.policy, input.approval));

    let corrected = false;
    for (;;) {
      if (run.step >= run.maxSteps) {
        const message = maxStepsMessage(run.maxSteps);
        run.messages.push({ role: 'assistant', content: message });
        return run.finish('max_steps', message);
      }
      const turn = await modelTurn(run);
      const toolCalls = turn.message.tool_calls ?? [];
      if (toolCalls.length > 0) {
        const calls = run.openStep(toolCalls);
        await Promise.all(calls.map((call) => settleCall(run, call)));
        run.closeStep();
        continue;
      }
      if (turn.structured && !turn.structured.ok) {
        if (corrected) throw new StructuredOutputError(run.agent, turn.structured.error);
        corrected = true;
        run.messages.push({ role: 'user', content: correctionRequest(turn.structured.error) });
        continue;
      }
      return run.finish('completed', turn.message.content ?? '', turn.structured?.ok ? turn.structured.value : undefined);
    }
  } catch (err) {
    throw run.fail(err);
  }
}
