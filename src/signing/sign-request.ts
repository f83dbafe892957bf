/**
 * Mints request tokens: what the API and `hitl start` sign for a run they start in someone's name, and what
 * `hitl sign-request` prints for a start sent another way. Runs in the signer's process, never in a workflow.
 */
import { REQUEST_TOKEN_TYPE, RequestClaims, requestBinding } from './request-claims.js';
import { signCompactJws, tokenFrame, type DecisionSigner } from './sign-decision.js';

/** How long a token signed for a start sent at once stays good. */
export const START_NOW_TTL_SECONDS = 120;

export interface RequestTokenRequest {
  workflowId: string;
  agent: string;
  prompt: string;
  /** Who asks: `sub`. */
  requestedBy: string;
  /** Epoch milliseconds; the token is issued now. */
  now: number;
  /** @default START_NOW_TTL_SECONDS */
  ttlSeconds?: number;
}

/** A request token for exactly this start; the claims are validated with the schema the verifier uses. */
export function signRequestToken(signer: DecisionSigner, request: RequestTokenRequest): string {
  const claims = RequestClaims.parse({
    ...tokenFrame(signer, request.requestedBy, request.now, request.ttlSeconds ?? START_NOW_TTL_SECONDS),
    request: requestBinding(request.workflowId, request.agent, request.prompt),
  });
  return signCompactJws(claims, signer.key, REQUEST_TOKEN_TYPE);
}
