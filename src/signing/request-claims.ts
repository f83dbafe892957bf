/**
 * What a request token says: who asked for a run (`sub`), and which start it is good for (`request`: the workflow id,
 * the agent and the prompt), in the same JWT frame as a decision token. A run that requires signed decisions takes
 * its `requestedBy` only from such a token, since four eyes and `requestedBy` conditions read it.
 */
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';
import { canonicalSha256 } from '../policy/args-hash.js';
import { RegisteredClaims } from './decision-claims.js';

/** The JWS `typ` of a request token: a decision token never passes as one, nor the other way round. */
export const REQUEST_TOKEN_TYPE = 'hitl-request+jwt';

/** The start a token is good for, and nothing else. */
export const RequestBinding = builtOnce('signing/request-claims.RequestBinding', () =>
  z.strictObject({
    workflowId: z.string().min(1),
    agent: z.string().min(1),
    /** requestPromptHash of the prompt. */
    promptHash: z.string().min(1),
  }),
);
export type RequestBinding = z.infer<typeof RequestBinding>;

/** The claims of a request token this project's signer (the API, `hitl start`, `hitl sign-request`) mints. */
export const RequestClaims = builtOnce('signing/request-claims.RequestClaims', () =>
  RegisteredClaims.extend({
    jti: z.string().min(1).max(200),
    request: RequestBinding,
  }),
);
export type RequestClaims = z.infer<typeof RequestClaims>;

export function requestPromptHash(prompt: string): string {
  return `sha256:${canonicalSha256(prompt)}`;
}

export function requestBinding(workflowId: string, agent: string, prompt: string): RequestBinding {
  return { workflowId, agent, promptHash: requestPromptHash(prompt) };
}

/**
 * The OpenID Connect `nonce` that binds an ID token to one start. Hashed with its kind, so no request's nonce is a
 * decision's (decisionNonce).
 */
export function requestNonce(binding: RequestBinding): string {
  return `hitl1.${canonicalSha256({ request: binding })}`;
}
