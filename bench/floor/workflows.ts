/**
 * The floor: the least a Temporal round trip can cost on this server, bundled separately from the agent
 * workflow. Nothing here validates, publishes search attributes or keeps a transcript.
 */
import { condition, defineQuery, defineSignal, defineUpdate, proxyActivities, setHandler } from '@temporalio/workflow';
import type { FloorActivities } from './activities.js';

const { floorTool, floorNext, floorStep } = proxyActivities<FloorActivities>({ startToCloseTimeout: '1m' });

export const floorDecideUpdate = defineUpdate<{ ok: true }, [unknown]>('decide');
export const floorDecisionSignal = defineSignal<[unknown]>('decision');
export const floorReadyQuery = defineQuery<boolean>('ready');

/**
 * Waits for a decision (update or signal), runs one activity (the "tool"), then starts the next one (the analog
 * of the next model call): the same span the decision-latency benchmark measures on the agent workflow.
 */
export async function floorDecisionWorkflow(): Promise<string> {
  let decided = false;
  setHandler(floorReadyQuery, () => true);
  setHandler(floorDecideUpdate, () => {
    decided = true;
    return { ok: true as const };
  });
  setHandler(floorDecisionSignal, () => {
    decided = true;
  });
  await condition(() => decided);
  await floorTool();
  return floorNext();
}

/** `steps` × two trivial activities in sequence: the floor of an automatic agent step (model call + tool). */
export async function floorStepsWorkflow(steps: number): Promise<number> {
  for (let i = 0; i < steps; i++) {
    await floorStep('model');
    await floorStep('tool');
  }
  return steps;
}
