/**
 * Why a run's start input is refused before its schema reads it: it cannot be decoded, it comes with more than its
 * one argument, it has keys the input does not take (a misspelled `aproval` or `maxStep` would otherwise be dropped,
 * and the run go ahead without what was meant), a `__proto__` key, or a policy and breakpoints too large to carry on.
 * Each check came with a patch, and is asked in the order runs have always asked them.
 */
import { startInputDepthProblem } from '../bounds/json-depth.js';
import { keysNotIn } from '../bounds/unknown-keys.js';
import { protoKeyRefusal } from '../bounds/proto-keys.js';
import { runPolicyTooLarge } from '../contract/run-policy-size.js';
import { undecodableMessage, undecodableReason } from '../contract/undecodable-payload.js';
import { AgentWorkflowInput } from '../schemas/agent-workflow-input.js';
import { extraArgumentsRefusal } from './one-argument.js';
import { PATCHES, takesPatch } from './patches.js';

export function startInputRefusal(rawInput: unknown, extra: unknown[]): string | undefined {
  const undecoded = undecodableReason(rawInput);
  if (undecoded !== undefined) return undecodableMessage('input', undecoded);
  // Before anything walks it by recursion (the schema, a serialisation). A continued run's input is its chain's own.
  const firstOfChain = typeof rawInput === 'object' && rawInput !== null && !('carry' in rawInput);
  const tooDeep = firstOfChain && takesPatch(PATCHES.startInputDepthBound) ? startInputDepthProblem(rawInput) : undefined;
  if (tooDeep) return tooDeep;
  const extraArguments = extraArgumentsRefusal('start input', extra);
  if (extraArguments) return extraArguments;
  // A `__proto__` key is refused as what it is, not as a misspelling (both refuse the input whole).
  const protoKey = takesPatch(PATCHES.protoKeysRefused) ? protoKeyRefusal('start input', rawInput) : undefined;
  if (protoKey) return protoKey;
  const unknownKeys = takesPatch(PATCHES.strictStartInput) ? keysNotIn(rawInput, AgentWorkflowInput.shape) : [];
  if (unknownKeys.length) return unknownKeysMessage(unknownKeys);
  // A chain's first run checks the size; the runs it continues as carry the same input on, and a chain started before
  // the limit keeps going as it was.
  return firstOfChain && takesPatch(PATCHES.runPolicyLimited) ? runPolicyTooLarge(rawInput) : undefined;
}

function unknownKeysMessage(keys: string[]): string {
  return `unknown ${keys.length === 1 ? 'key' : 'keys'} ${keys.map((k) => JSON.stringify(k.slice(0, 100))).join(', ')} (misspelled?)`;
}
