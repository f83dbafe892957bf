import { utf8Length } from '../bounds/truncate.js';
import { LIMITS } from './limits.js';

/**
 * Why a decision input is refused for its size, or undefined. The run refuses it with these words, and our clients
 * check before they send: the run would refuse it anyway, the bytes need not cross the network, and near Temporal's
 * own limits (4 MB per request) Temporal may turn the update down itself with an error that does not say why.
 */
export function decisionInputTooLarge(input: unknown): string | undefined {
  const bytes = utf8Length(JSON.stringify(input) ?? '');
  return bytes > LIMITS.decisionInputBytes ? `The decision input is ${bytes} bytes; the limit is ${LIMITS.decisionInputBytes}.` : undefined;
}
