/**
 * The carried state has to fit in the one payload that starts the next run: Temporal refuses a continue-as-new input
 * over its 2 MiB payload limit and ends the run, with every call still waiting in it. Each part has its own bound
 * (LIMITS), but a prompt, a context, a run policy, a queue of messages, waiting calls and a transcript all at their
 * bounds, with an agent of long instructions or many MCP tools, pass 2 MiB together.
 *
 * Over LIMITS.carriedInputBytes, what the next run can go on without is shed first, in this order: the transcript
 * (its older contents cut, then its oldest messages dropped, as its own budget does; the model sees the marker), then
 * audit entries, the details of decided calls, the policy's recent classifications and the model-call log. All of it
 * stays in this run's history, which `previousRunIds` names. What is left (the prompt, queued messages, waiting calls,
 * the policy, the agent) the run cannot drop: if it still does not fit, the run does not continue as new now
 * (continue-as-new.ts).
 */
import { utf8Length } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import type { AgentWorkflowInput } from '../schemas/agent-workflow-input.js';
import type { CarriedState } from '../schemas/carried-state.js';
import { fitMessages, messageBytes } from './transcript.js';

/** What the next run is started with, as continueAsNew sends it. */
export type NextRunInput = AgentWorkflowInput & { carry: CarriedState };

/** Decided calls whose details (who decided what) are kept when shedding; older ones are still known to be decided. */
const SHED_KEEP_DECIDED = 100;

/** Bytes of the payload continueAsNew writes for `input` (the JSON its payload converter writes). */
export function nextRunInputBytes(input: NextRunInput): number {
  return utf8Length(JSON.stringify(input));
}

/** Ways to make the carried state smaller, in the order they are tried: each keeps what the next run needs. */
const SHEDDING: readonly ((carry: CarriedState, overBytes: number) => CarriedState)[] = [
  (carry, over) => {
    const messages = [...carry.messages];
    const budget = messages.reduce((sum, m) => sum + messageBytes(m), 0) - over;
    const dropped = fitMessages(messages, Math.max(0, budget));
    return { ...carry, messages, messagesDropped: carry.messagesDropped + dropped };
  },
  (carry) => ({ ...carry, audit: [], auditDropped: carry.auditDropped + carry.audit.length }),
  (carry) => ({
    ...carry,
    decided: carry.decided.slice(-SHED_KEEP_DECIDED),
    policyOutcomes: [],
    modelCalls: { ...carry.modelCalls, entries: [] },
  }),
];

/**
 * `input` shed until it fits in LIMITS.carriedInputBytes, shedding as little as it can; without `input` when it cannot
 * fit. A shed is tried again while it still makes the input smaller: the transcript's own measure only comes near the
 * JSON's.
 */
export function fitNextRunInput(input: NextRunInput): { input?: NextRunInput; bytes: number } {
  let fitted = input;
  let bytes = nextRunInputBytes(fitted);
  for (const shed of SHEDDING) {
    while (bytes > LIMITS.carriedInputBytes) {
      const smaller = { ...fitted, carry: shed(fitted.carry, bytes - LIMITS.carriedInputBytes) };
      const smallerBytes = nextRunInputBytes(smaller);
      if (smallerBytes >= bytes) break;
      fitted = smaller;
      bytes = smallerBytes;
    }
  }
  return bytes <= LIMITS.carriedInputBytes ? { input: fitted, bytes } : { bytes };
}
