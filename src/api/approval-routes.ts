/** `/api/approvals`: what waits for a decision, and the four ways to decide it. */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { ApprovalNotFoundError } from '../errors/approval-not-found-error.js';
import type { Decision } from '../schemas/decision.js';
import type { WaitingApproval } from '../schemas/waiting-approval.js';
import { decodeApprovalId } from '../client/approval-id.js';
import { decisionUpdateId } from './idempotency-key.js';
import type { ApiApp, ApiEnv, ApiOptions } from './api-env.js';
import type { Identity } from './api-tokens.js';
import {
  ApprovalListQuery,
  ApprovalView,
  ApproveBody,
  DecisionHeaders,
  DecisionResponse,
  EditBody,
  ErrorBody,
  IdParam,
  RejectBody,
  RespondBody,
} from './http-schemas.js';

const json = <T extends z.ZodType>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });
const errors = {
  400: json(ErrorBody, 'Invalid request or decision'),
  401: json(ErrorBody, 'Missing or unknown token'),
  403: json(ErrorBody, 'You may not decide this call'),
  404: json(ErrorBody, 'No such approval'),
  409: json(ErrorBody, 'Already decided, or the arguments changed since you saw them'),
};

export function canDecide(approval: WaitingApproval, identity: Identity): boolean {
  const byApprovers =
    !approval.approvers || approval.approvers.includes(identity.approver) || identity.groups.some((g) => approval.approvers!.includes(g));
  return byApprovers && !approval.excludedApprovers?.includes(identity.approver);
}

export function toApprovalView(
  approval: WaitingApproval,
  identity: Identity,
  options: Pick<ApiOptions, 'temporalUiUrl' | 'namespace'>,
): ApprovalView {
  return {
    id: approval.approvalId,
    runId: approval.runId,
    callId: approval.id,
    agent: approval.agent,
    toolName: approval.toolName,
    arguments: approval.args,
    argsHash: approval.argsHash,
    description: approval.description,
    allowedDecisions: approval.allowedDecisions,
    requestedAt: approval.requestedAt,
    deadline: approval.deadline,
    step: approval.step,
    onTimeout: approval.onTimeout,
    userPrompt: approval.userPrompt,
    ...(approval.requestedBy && { requestedBy: approval.requestedBy }),
    ...(approval.approvers && { approvers: approval.approvers }),
    canDecide: canDecide(approval, identity),
    temporalUiUrl: `${options.temporalUiUrl}/namespaces/${encodeURIComponent(options.namespace)}/workflows/${encodeURIComponent(approval.workflowId ?? approval.runId)}`,
  };
}
type ApprovalView = z.infer<typeof ApprovalView>;

function decideRoute<B extends z.ZodType>(action: string, body: B, summary: string) {
  return createRoute({
    method: 'post',
    path: `/api/approvals/{id}/${action}`,
    summary,
    request: { params: IdParam, headers: DecisionHeaders, body: { content: { 'application/json': { schema: body } }, required: true } },
    responses: { 200: json(DecisionResponse, 'The decision was applied'), ...errors },
  });
}

export function approvalRoutes(app: ApiApp, options: ApiOptions): void {
  const { hitl } = options;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/approvals',
      summary: 'Everything waiting for a decision, across runs',
      request: { query: ApprovalListQuery },
      responses: { 200: json(z.array(ApprovalView), 'Pending approvals, oldest first'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => {
      const waiting = await hitl.listWaiting(c.req.valid('query'));
      return c.json(
        waiting.map((a) => toApprovalView(a, c.get('identity'), options)),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/approvals/{id}',
      summary: 'One pending approval',
      request: { params: IdParam },
      responses: { 200: json(ApprovalView, 'The pending approval'), 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(toApprovalView(await hitl.findApproval(c.req.valid('param').id), c.get('identity'), options), 200),
  );

  /** Sends one decision for the call the id names, as the caller's identity. */
  const decide = async (c: Context<ApiEnv>, id: string, decision: Omit<Decision, 'id'>) => {
    const ref = decodeApprovalId(id);
    if (!ref) throw new ApprovalNotFoundError(id, 'it is not a valid approval id');
    const clean = Object.fromEntries(Object.entries({ ...decision, id: ref.callId }).filter(([, v]) => v !== undefined)) as Decision;
    const identity = c.get('identity');
    const input = { decisions: [clean], approver: identity.approver, groups: identity.groups };
    // Checked against DecisionHeaders by the route.
    const key = c.req.header('idempotency-key');
    return hitl.decide(ref.workflowId, input, { updateId: key && decisionUpdateId(key, ref.workflowId, input) });
  };

  app.openapi(decideRoute('approve', ApproveBody, 'Approve, optionally with modified arguments (an edit)'), async (c) => {
    const body = c.req.valid('json');
    const decision: Omit<Decision, 'id'> = body.modifiedArguments
      ? { type: 'edit', args: body.modifiedArguments, message: body.comment, argsHash: body.argsHash }
      : { type: 'approve', always: body.always, message: body.comment, argsHash: body.argsHash };
    if (body.modifiedArguments && body.always) {
      return c.json({ error: { code: 'invalid_request', message: '`always` cannot be combined with modifiedArguments.' } }, 400);
    }
    return c.json(await decide(c, c.req.valid('param').id, decision), 200);
  });

  app.openapi(decideRoute('reject', RejectBody, 'Reject; the reason reaches the model'), async (c) => {
    const body = c.req.valid('json');
    return c.json(
      await decide(c, c.req.valid('param').id, {
        type: 'reject',
        message: body.reason,
        always: body.always,
        argsHash: body.argsHash,
      }),
      200,
    );
  });

  app.openapi(decideRoute('edit', EditBody, 'Run with new arguments, or as another tool'), async (c) => {
    const body = c.req.valid('json');
    return c.json(
      await decide(c, c.req.valid('param').id, {
        type: 'edit',
        args: body.arguments,
        name: body.name,
        message: body.comment,
        argsHash: body.argsHash,
      }),
      200,
    );
  });

  app.openapi(decideRoute('respond', RespondBody, 'Answer for the tool: the message is the tool result'), async (c) => {
    const body = c.req.valid('json');
    return c.json(await decide(c, c.req.valid('param').id, { type: 'respond', message: body.message }), 200);
  });
}
