import { utf8Length } from '../bounds/truncate.js';
import { LIMITS } from './limits.js';

/**
 * Why a run's own policy and breakpoints are refused for their size, or undefined. A run hands its input on to every
 * run it continues as, beside its transcript: unbounded, a start within Temporal's 2 MB payload limit could grow past
 * it at the first continue-as-new, whose workflow task would then fail again and again. The run refuses it in these
 * words (since patch set 14), and our clients check before they start it.
 */
export function runPolicyTooLarge(input: { approval?: unknown; interrupt?: unknown }): string | undefined {
  if (input.approval === undefined && input.interrupt === undefined) return undefined;
  const bytes = utf8Length(JSON.stringify({ approval: input.approval, interrupt: input.interrupt }));
  return bytes > LIMITS.runPolicyBytes
    ? `approval and interrupt take ${bytes} bytes of JSON together; the limit is ${LIMITS.runPolicyBytes}, as a run carries them into every run it continues as.`
    : undefined;
}
