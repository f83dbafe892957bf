/**
 * Verifies a run's request token inside the workflow (verify-token.ts): who asked, for exactly this start, the
 * workflow id, the agent and the prompt.
 */
import { REQUEST_TOKEN_TYPE, RequestClaims, requestNonce, type RequestBinding } from './request-claims.js';
import { refuse } from './token-refusal.js';
import type { DecisionTrust } from './trust.js';
import { verifyBoundToken, type BoundTokenKind, type IdentityCheck, type ReadClaims } from './verify-token.js';

const REQUEST_TOKEN: BoundTokenKind<RequestBinding> = {
  what: 'start',
  unsigned: 'This run requires a signed request token.',
  type: REQUEST_TOKEN_TYPE,
  hitlClaims(payload, expected): ReadClaims {
    const parsed = RequestClaims.safeParse(payload);
    if (!parsed.success) return refuse('invalid_claims', `The token's claims are not a request's: ${parsed.error.issues[0]?.message}.`);
    const signed = parsed.data.request;
    if (signed.workflowId !== expected.workflowId) {
      return refuse('wrong_workflow', `The token is for run ${signed.workflowId}, not ${expected.workflowId}.`);
    }
    if (signed.agent !== expected.agent) return refuse('wrong_agent', `The token is for agent ${signed.agent}, not ${expected.agent}.`);
    if (signed.promptHash !== expected.promptHash) return refuse('prompt_mismatch', 'The prompt is not the one signed.');
    return { ok: true, registered: parsed.data, groups: [], tokenId: parsed.data.jti };
  },
  nonce: requestNonce,
};

/**
 * @param token the start input's `requestToken` (anything: it is validated here)
 * @param binding requestBinding(workflowId, agent, prompt) of the run
 * @param now epoch milliseconds: the workflow's clock at the run's first task
 */
export function verifyRequestToken(token: unknown, binding: RequestBinding, trust: DecisionTrust, now: number): IdentityCheck {
  return verifyBoundToken(token, REQUEST_TOKEN, binding, trust, now);
}
