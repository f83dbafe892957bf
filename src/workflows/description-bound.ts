/**
 * The text approvers read for a call, as the policy writes it, is cut to LIMITS.descriptionBytes since patch
 * descriptionsBounded: the default quotes the call's arguments whole, and a waiting call carries that text twice (its
 * gate and its pending entry) besides the arguments themselves, into every run it continues as. The arguments are
 * shown whole beside it. A tool's own text (`describe: true`) is cut the same way, prefix and all, since patch
 * toolDescriptionsBounded.
 */
import { truncateJsonBytes } from '../bounds/truncate.js';
import type { ClassifyOptions } from '../policy/classify-call.js';
import { LIMITS } from '../contract/limits.js';
import { PATCHES, takesPatch } from './patches.js';

/** classifyCall's options for this run: the description's bound, gates that fail safe (patch set 28) and read folded text (32). */
export function classifyOptions(): ClassifyOptions {
  return {
    ...(takesPatch(PATCHES.descriptionsBounded) && { descriptionBytes: LIMITS.descriptionBytes }),
    ...(takesPatch(PATCHES.gatesFailSafe) && { failSafe: true }),
    ...(takesPatch(PATCHES.gatesFoldText) && { foldsText: true }),
  };
}

/** A tool's own text for approvers after the policy's prefix, under the same bound since patch toolDescriptionsBounded. */
export function toolWrittenDescription(prefix: string, text: string): string {
  if (!takesPatch(PATCHES.toolDescriptionsBounded)) return `${prefix}: ${text.slice(0, 4000)}`;
  return truncateJsonBytes(`${prefix}: ${text}`, LIMITS.descriptionBytes);
}
