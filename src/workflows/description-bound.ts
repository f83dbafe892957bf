/**
 * The text approvers read for a call, as the policy writes it, is cut to LIMITS.descriptionBytes since patch
 * descriptionsBounded: the default quotes the call's arguments whole, and a waiting call carries that text twice (its
 * gate and its pending entry) besides the arguments themselves, into every run it continues as. The arguments are
 * shown whole beside it.
 */
import { LIMITS } from '../contract/limits.js';
import { PATCHES, takesPatch } from './patches.js';

/** classifyCall's options for this run. */
export function descriptionOptions(): { descriptionBytes?: number } {
  return takesPatch(PATCHES.descriptionsBounded) ? { descriptionBytes: LIMITS.descriptionBytes } : {};
}
