/**
 * Verifies the token a decision carries inside the workflow (verify-token.ts): who decides, for exactly this
 * decision (the run, the call, the arguments the approver saw, the type and its content), once per run.
 */
import { DECISION_TOKEN_TYPE, DecisionClaims, decisionNonce, type DecisionBinding } from './decision-claims.js';
import { refuse, type TokenRefusal } from './token-refusal.js';
import type { DecisionTrust } from './trust.js';
import { verifyBoundToken, type BoundTokenKind, type ReadClaims, type VerifiedIdentity, type VerifyOptions } from './verify-token.js';

/** Who decided, as the token proves it: the verified identity, its `sub` as the approver. */
export type VerifiedDecider = Omit<VerifiedIdentity, 'subject'> & { approver: string };

export type DecisionTokenCheck = { ok: true; decider: VerifiedDecider } | TokenRefusal;

const DECISION_TOKEN: BoundTokenKind<DecisionBinding> = {
  what: 'decision',
  unsigned: 'This run requires a signed decision token.',
  type: DECISION_TOKEN_TYPE,
  hitlClaims(payload, binding): ReadClaims {
    const parsed = DecisionClaims.safeParse(payload);
    if (!parsed.success) return refuse('invalid_claims', `The token's claims are not a decision's: ${parsed.error.issues[0]?.message}.`);
    const signed = parsed.data.decision;
    const mismatch =
      signed.workflowId !== binding.workflowId
        ? refuse('wrong_workflow', `The token is for run ${signed.workflowId}, not ${binding.workflowId}.`)
        : signed.callId !== binding.callId
          ? refuse('wrong_call', `The token is for call ${signed.callId}, not ${binding.callId}.`)
          : signed.argsHash !== binding.argsHash
            ? refuse('args_mismatch', `The token approves arguments ${signed.argsHash}; the call has ${binding.argsHash}.`)
            : signed.type !== binding.type
              ? refuse('wrong_decision_type', `The token is for ${signed.type}, not ${binding.type}.`)
              : signed.contentHash !== binding.contentHash
                ? refuse('content_mismatch', 'The decision (edited arguments, tool, message or always) is not the one signed.')
                : undefined;
    return mismatch ?? { ok: true, registered: parsed.data, groups: parsed.data.groups, tokenId: parsed.data.jti };
  },
  nonce: decisionNonce,
};

/**
 * @param token the decision's token (anything: it is validated here)
 * @param binding what the run expects, from decisionBinding(workflowId, pending.argsHash, decision)
 * @param trust the run's recorded DecisionTrust (already parsed)
 * @param now epoch milliseconds: the workflow's clock
 */
export function verifyDecisionToken(
  token: unknown,
  binding: DecisionBinding,
  trust: DecisionTrust,
  now: number,
  options: VerifyOptions = {},
): DecisionTokenCheck {
  const check = verifyBoundToken(token, DECISION_TOKEN, binding, trust, now, options);
  if (!check.ok) return check;
  const { subject, ...rest } = check.identity;
  return { ok: true, decider: { approver: subject, ...rest } };
}
