/**
 * Why a run's start input is refused before its schema reads it: it cannot be decoded, it comes with more than its
 * one argument, it has keys the input does not take (a misspelled `aproval` or `maxStep` would otherwise be dropped,
 * and the run go ahead without what was meant), or a `__proto__` key. Each check came with a patch, and is asked in
 * the order runs have always asked them.
 */
import { keysNotIn } from '../bounds/unknown-keys.js';
import { protoKeyRefusal } from '../bounds/proto-keys.js';
import { undecodableMessage, undecodableReason } from '../contract/undecodable-payload.js';
import { AgentWorkflowInput } from '../schemas/agent-workflow-input.js';
import { extraArgumentsRefusal } from './one-argument.js';
import { PATCHES, takesPatch } from './patches.js';

export function startInputRefusal(rawInput: unknown, extra: unknown[]): string | undefined {
  const undecoded = undecodableReason(rawInput);
  if (undecoded !== undefined) return undecodableMessage('input', undecoded);
  const extraArguments = extraArgumentsRefusal('start input', extra);
  if (extraArguments) return extraArguments;
  // A `__proto__` key is refused as what it is, not as a misspelling (both refuse the input whole).
  const protoKey = takesPatch(PATCHES.protoKeysRefused) ? protoKeyRefusal('start input', rawInput) : undefined;
  if (protoKey) return protoKey;
  const unknownKeys = takesPatch(PATCHES.strictStartInput) ? keysNotIn(rawInput, AgentWorkflowInput.shape) : [];
  return unknownKeys.length ? unknownKeysMessage(unknownKeys) : undefined;
}

function unknownKeysMessage(keys: string[]): string {
  return `unknown ${keys.length === 1 ? 'key' : 'keys'} ${keys.map((k) => JSON.stringify(k.slice(0, 100))).join(', ')} (misspelled?)`;
}
