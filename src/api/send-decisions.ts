/**
 * Sends decisions to one run in the caller's name: the identity the bearer token maps to decides, every decision is
 * signed when the API signs, and an `Idempotency-Key` makes a retry answer as the first attempt did.
 */
import type { Context } from 'hono';
import { oldestBatch } from '../contract/pending-batch.js';
import type { HitlClient } from '../client/hitl-client.js';
import type { Decision } from '../schemas/decision.js';
import { signedDecision, type DecisionSigner } from '../signing/sign-decision.js';
import type { ApiEnv, ApiOptions } from './api-env.js';
import type { Identity } from './api-tokens.js';
import { decisionUpdateId } from './idempotency-key.js';

export async function sendDecisions(
  c: Context<ApiEnv>,
  options: Pick<ApiOptions, 'hitl' | 'signer'>,
  workflowId: string,
  decisions: Decision[],
) {
  const identity = c.get('identity');
  const unsigned = { decisions, approver: identity.approver, groups: identity.groups };
  const input = options.signer
    ? { ...unsigned, decisions: await signAll(options.hitl, options.signer, workflowId, decisions, identity) }
    : unsigned;
  // The key covers what the caller sent, not the tokens signed for it (new on every attempt). Checked against
  // DecisionHeaders by the route.
  const key = c.req.header('idempotency-key');
  const updateId = key && decisionUpdateId(key, workflowId, unsigned);
  return c.json(await options.hitl.decide(workflowId, input, { updateId }), 200);
}

/**
 * Each decision with a token for the call it decides, as the run pairs them (by id, or in order onto the oldest
 * batch) and for the arguments the run holds now. A decision the API cannot pair with a pending call goes
 * unsigned: the run (or, for a closed run, the client) refuses it with its own reason. A stale `argsHash` is signed as sent, and refused by the run as before.
 */
async function signAll(hitl: HitlClient, signer: DecisionSigner, workflowId: string, decisions: Decision[], identity: Identity) {
  const needed = decisions.some((d) => d.id === undefined || d.argsHash === undefined);
  const pending = needed ? await hitl.pending(workflowId).catch(() => []) : [];
  const batch = oldestBatch(pending);
  return decisions.map((d, i) => {
    const call = d.id === undefined ? (batch.length === decisions.length ? batch[i] : undefined) : pending.find((p) => p.id === d.id);
    const id = d.id ?? call?.id;
    const argsHash = d.argsHash ?? call?.argsHash;
    // Not a pending call (the run ended, or no such id): nothing to bind a token to.
    if (id === undefined || argsHash === undefined) return d;
    return signedDecision(
      signer,
      { ...d, id },
      {
        workflowId,
        argsHash,
        approver: identity.approver,
        groups: identity.groups,
        now: Date.now(),
      },
    );
  });
}
