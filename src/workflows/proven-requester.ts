/**
 * Who asked for a run, proven where it matters. Four eyes and `requestedBy` conditions read a run's `requestedBy`,
 * and a start sent straight to Temporal can name anyone. So a run whose decisions must be signed takes it only from
 * a request token (src/signing/request-claims.ts), signed by a key the run trusts for this workflow id, agent and
 * prompt; without one it has no requester, and four eyes, which needs one, refuses the start.
 *
 * A run continued as new carries the requester its chain proved (resume), and a sub-agent's run takes its parent's:
 * only a workflow starts a child, never a caller.
 */
import { workflowInfo } from '@temporalio/workflow';
import { InvalidRunInputError } from '../errors.js';
import type { AgentSnapshot } from '../schemas/agent-snapshot.js';
import type { AgentWorkflowInput } from '../schemas/agent-workflow-input.js';
import type { ApprovalPolicy } from '../schemas/approval-policy.js';
import { requestBinding } from '../signing/request-claims.js';
import { verifyRequestToken } from '../signing/verify-request.js';
import { PATCHES, takesPatch } from './patches.js';

const HOW = 'the HTTP API and `hitl start` sign one when they hold the signing key; `hitl sign-request` prints one';

/**
 * The run's requester, or an InvalidRunInputError saying why the start is refused.
 * @param startedAt the workflow's clock in the run's first task (the same in a reset to a later task, which replays it)
 */
export function provenRequester(
  input: AgentWorkflowInput,
  snapshot: AgentSnapshot,
  policy: ApprovalPolicy,
  startedAt: number,
): string | undefined {
  const signed = snapshot.signedDecisions;
  if (!signed?.required || workflowInfo().parent || !takesPatch(PATCHES.provenRequester)) return input.requestedBy;
  const claimed = input.requestedBy;
  if (input.requestToken === undefined) {
    if (claimed !== undefined) {
      throw new InvalidRunInputError(
        `requestedBy ${JSON.stringify(claimed)} is not proven: this run's decisions must be signed, so who asked must be too (a requestToken: ${HOW})`,
      );
    }
    if (policy.fourEyes) throw new InvalidRunInputError(`four eyes needs a proven requester: start with a requestToken (${HOW})`);
    return undefined;
  }
  if (!signed.trust) throw new InvalidRunInputError('requestToken: this worker trusts no key to verify it (HITL_TRUSTED_JWKS)');
  const check = verifyRequestToken(
    input.requestToken,
    requestBinding(workflowInfo().workflowId, input.agent, input.prompt),
    signed.trust,
    startedAt,
  );
  if (!check.ok) throw new InvalidRunInputError(`requestToken refused (${check.code}): ${check.message}`);
  const subject = check.identity.subject;
  if (claimed !== undefined && claimed !== subject) {
    throw new InvalidRunInputError(`requestedBy ${JSON.stringify(claimed)} is not who the requestToken names (${JSON.stringify(subject)})`);
  }
  return subject;
}
