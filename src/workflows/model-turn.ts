/** One model call: the transcript goes out, the assistant message comes back and joins it. */
import type { CallModelResult } from '../activities/call-model.js';
import { modelActivities } from './activities.js';
import type { AgentRun } from './agent-run.js';

export async function modelTurn(run: AgentRun): Promise<CallModelResult> {
  run.step += 1;
  run.turnSteps += 1;
  run.publish(`calling ${run.snapshot!.model}`);
  const result = await modelActivities.callModel.executeWithOptions(
    {
      summary: `model ${run.snapshot!.model} · step ${run.step}`,
      startToCloseTimeout: '5m',
      // The activity heartbeats every 2s while the API answers: a crashed worker is noticed in seconds.
      heartbeatTimeout: '10s',
      retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 10 },
    },
    [{ agent: run.agent, model: run.snapshot!.model, messages: run.messages, tools: run.snapshot!.tools, step: run.step }],
  );
  run.messages.push(result.message);
  run.usage = {
    promptTokens: run.usage.promptTokens + result.usage.promptTokens,
    completionTokens: run.usage.completionTokens + result.usage.completionTokens,
  };
  return result;
}
