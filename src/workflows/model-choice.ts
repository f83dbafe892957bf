/**
 * Which model (and endpoint) answers a call: the agent's named selector, when it has one (LangGraph's dynamic
 * model), else the agent's model. Selectors are pure, so a replay chooses the same; the choice goes into the
 * model activity's input and summary (history, the Temporal UI) and the run's `modelCalls` (runState).
 */
import { z } from 'zod';
import { ModelHookError } from '../errors.js';
import { modelSelectors } from '../hooks/model-selectors.js';
import { ModelChoice } from '../schemas/agent-options.js';
import type { AgentRun } from './agent-run.js';
import { messageBytes } from './transcript.js';

export function chooseModel(run: AgentRun, step: number): ModelChoice {
  const use = run.snapshot.modelSelector;
  if (!use) return { model: run.snapshot.model };
  const selector = Object.hasOwn(modelSelectors, use.name) ? modelSelectors[use.name] : undefined;
  if (!selector)
    throw new ModelHookError('modelSelector', use.name, 'no selector of that name is registered (src/hooks/model-selectors.ts)');
  const messages = run.transcript.messages;
  let chosen: unknown;
  try {
    const options = selector.options.parse(use.options ?? {});
    chosen = selector.run(
      {
        agent: run.agent,
        step,
        turnStep: run.turnSteps,
        messages: messages.length,
        transcriptBytes: messages.reduce((n, m) => n + messageBytes(m), 0),
        defaultModel: run.snapshot.model,
        context: run.input.context ?? {},
      },
      options,
    );
  } catch (err) {
    throw new ModelHookError('modelSelector', use.name, err instanceof z.ZodError ? z.prettifyError(err) : String(err));
  }
  const parsed = ModelChoice.safeParse(chosen);
  if (!parsed.success) throw new ModelHookError('modelSelector', use.name, `it chose no valid model: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
