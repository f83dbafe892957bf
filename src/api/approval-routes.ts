/** `/api/approvals`: what waits for a decision, and the four ways to decide it. */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { decisionFor, type ActionOptions, type DecisionAction } from '../contract/decision-actions.js';
import { ApprovalNotFoundError } from '../errors.js';
import { decisionRules, mayDecide, mayWithdraw, type Verdict } from '../policy/may-decide.js';
import { pollUntil } from '../client/poll-until.js';
import { endedAs } from '../client/ended-run.js';
import { agentRunDescription } from '../client/followed-run.js';
import type { WaitingApproval } from '../schemas/waiting-approval.js';
import { decodeApprovalId, encodeApprovalId } from '../contract/approval-id.js';
import { apiLog, type ApiApp, type ApiEnv, type ApiOptions } from './api-env.js';
import { errorResponse } from './api-errors.js';
import type { Identity } from './api-tokens.js';
import {
  ApprovalListQuery,
  ApprovalStatusView,
  ApprovalView,
  ApproveBody,
  DecisionHeaders,
  DecisionResponse,
  EditBody,
  ErrorBody,
  IdParam,
  RejectBody,
  NoQuery,
  RejectQuery,
  RespondBody,
} from './http-schemas.js';
import { sendDecisions } from './send-decisions.js';
import { runLinks } from './run-links.js';

const json = <T extends z.ZodType>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });
const errors = {
  400: json(ErrorBody, 'Invalid request or decision'),
  401: json(ErrorBody, 'Missing or unknown token'),
  403: json(ErrorBody, 'You may not decide this call'),
  404: json(ErrorBody, 'No such approval'),
  409: json(ErrorBody, 'Already decided, the arguments changed since you saw them, or the run is stuck or closed'),
};

/** Whether the caller may decide the call, and if not why: the planner's own rule, by the call's rules version. */
function verdictFor(approval: WaitingApproval, identity: Identity): Verdict {
  return mayDecide(approval, identity, 'runs', decisionRules(approval.checks));
}

export function canDecide(approval: WaitingApproval, identity: Identity): boolean {
  return verdictFor(approval, identity).ok;
}

/**
 * Whether the caller, who may not approve the call, may still withdraw it (a reject), by the planner's rules: they
 * proposed it, or they requested the run and are among its approvers (four eyes keeps them from approving only).
 */
function canWithdraw(approval: WaitingApproval, identity: Identity): boolean {
  const verdict = verdictFor(approval, identity);
  if (verdict.ok || !approval.allowedDecisions.includes('reject')) return false;
  const requester = verdict.code === 'four_eyes' && !verdict.proposer;
  return mayWithdraw(approval, identity) || (requester && mayDecide(approval, identity, 'refuses', decisionRules(approval.checks)).ok);
}

export function toApprovalView(
  approval: WaitingApproval,
  identity: Identity,
  options: Pick<ApiOptions, 'temporalUiUrl' | 'namespace'>,
): ApprovalView {
  return {
    id: approval.approvalId,
    workflowId: approval.workflowId,
    callId: approval.id,
    agent: approval.agent,
    toolName: approval.toolName,
    arguments: approval.args,
    ...(approval.argsTruncated && { argumentsTruncated: true }),
    ...(approval.shortened && { shortened: true }),
    argsHash: approval.argsHash,
    description: approval.description,
    allowedDecisions: approval.allowedDecisions,
    requestedAt: approval.requestedAt,
    deadline: approval.deadline,
    step: approval.step,
    onTimeout: approval.onTimeout,
    rule: approval.rule,
    userPrompt: approval.userPrompt,
    ...(approval.requestedBy && { requestedBy: approval.requestedBy }),
    ...(approval.approvers && { approvers: approval.approvers }),
    ...(approval.subAgentWorkflowId && { subAgentWorkflowId: approval.subAgentWorkflowId }),
    ...(approval.proposedBy && { proposedBy: approval.proposedBy }),
    ...(approval.breakpoint && { breakpoint: approval.breakpoint }),
    sessionId: approval.workflowId,
    ...pick(approval, ['requiredApprovals', 'approvals', 'review', 'escalations', 'validFor', 'world', 'preparing', 'repended']),
    ...decidable(verdictFor(approval, identity)),
    ...(canWithdraw(approval, identity) && { canWithdraw: true }),
    temporalUiUrl: runLinks(options).ui(approval.subAgentWorkflowId ?? approval.workflowId),
    ...(approval.problem && { problem: approval.problem }),
  };
}
type ApprovalView = z.infer<typeof ApprovalView>;

/** `canDecide`, and when false the planner's reason, which the inbox words for people (it keeps no rule of its own). */
function decidable(verdict: Verdict): Pick<ApprovalView, 'canDecide' | 'whyNot'> {
  if (verdict.ok) return { canDecide: true };
  const how = verdict.atBreakpoint ? { atBreakpoint: true } : {};
  return { canDecide: false, whyNot: { code: verdict.code, ...(verdict.proposer && { proposer: true, ...how }) } };
}

/** The fields of `value` among `keys` that are set. */
function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.flatMap((key) => (value[key] === undefined ? [] : [[key, value[key]]]))) as Partial<Pick<T, K>>;
}

/**
 * The response header that counts the waiting runs the API could not read (encrypted with keys it lacks, or too
 * many calls for the memo and no answer to a query), whose calls the list therefore leaves out. A header, so the
 * body stays the plain array clients of approval services read; the log names the runs and why.
 */
const UNREADABLE_RUNS_HEADER = 'Hitl-Unreadable-Runs';

/** A decision route; `optional`: a request without a body decides with none of its options. */
function decideRoute<B extends z.ZodType, Q extends z.ZodObject = typeof NoQuery>(
  action: string,
  body: B,
  summary: string,
  more: { optional?: boolean; query?: Q } = {},
) {
  return createRoute({
    method: 'post',
    path: `/api/approvals/{id}/${action}`,
    summary,
    request: {
      params: IdParam,
      headers: DecisionHeaders,
      query: (more.query ?? NoQuery) as Q,
      body: { content: { 'application/json': { schema: body } }, required: !more.optional },
    },
    responses: { 200: json(DecisionResponse, 'The decision was applied'), ...errors },
  });
}

export function approvalRoutes(app: ApiApp, options: ApiOptions): void {
  const { hitl } = options;
  const log = apiLog(options);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/approvals',
      summary: 'Everything waiting for a decision, across runs; `wait=N` waits up to N seconds for something to',
      request: { query: ApprovalListQuery },
      responses: {
        200: {
          ...json(z.array(ApprovalView), 'Pending approvals, oldest first'),
          headers: z.object({
            [UNREADABLE_RUNS_HEADER]: z.string().optional().openapi({
              description: 'How many waiting runs this server could not read, so that their calls are not in the list (absent when none)',
            }),
          }),
        },
        400: errors[400],
        401: errors[401],
        404: json(ErrorBody, 'With `workflowId` and `wait`: no such run, or not an agent run (answered at once)'),
      },
    }),
    async (c) => {
      const { wait, ...filter } = c.req.valid('query');
      // One run, waited for: a run that is not one (a typo, another workflow) is said at once (404), and a closed one
      // will never wait (the list is empty now), rather than after the whole wait.
      const closed = filter.workflowId && wait ? endedAs(await agentRunDescription(hitl.temporal, filter.workflowId)) : undefined;
      const waitMs = closed ? 0 : (wait ?? 0) * 1000;
      const { waiting, unreadable } = await pollUntil(
        () => hitl.waitingAcrossRuns(filter),
        (listing) => listing.waiting.length > 0,
        waitMs,
        c.req.raw.signal,
      );
      if (unreadable.length) {
        c.header(UNREADABLE_RUNS_HEADER, String(unreadable.length));
        log(
          `[api] GET /api/approvals left out ${unreadable.length} waiting run(s) it could not read: ${unreadable.map((r) => `${JSON.stringify(r.workflowId)} (${JSON.stringify(r.reason)})`).join(', ')}`,
        );
      }
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
      summary: 'One pending approval, with its arguments whole; for a stuck run, the problem',
      request: { params: IdParam, query: NoQuery },
      responses: { 200: json(ApprovalView, 'The pending approval'), 400: errors[400], 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(toApprovalView(await hitl.findApproval(c.req.valid('param').id), c.get('identity'), options), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/approvals/{id}/status',
      summary: 'Where one approval stands, waiting or not: waiting, decided (how), timed out, waiting again under a new id, or unsettled',
      request: { params: IdParam, query: NoQuery },
      responses: { 200: json(ApprovalStatusView, 'Where it stands'), 400: errors[400], 401: errors[401], 404: errors[404] },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      const status = await hitl.approvalStatus(id);
      const waitsAsId = status.waitsAs && encodeApprovalId({ workflowId: status.workflowId, callId: status.waitsAs });
      return c.json({ id, ...status, ...(waitsAsId && { waitsAsId }) }, 200);
    },
  );

  /** Sends one decision for the call the id names, as the caller's identity. */
  const decide = async (c: Context<ApiEnv>, action: DecisionAction, actionOptions: ActionOptions) => {
    const id = c.req.param('id') ?? '';
    const ref = decodeApprovalId(id);
    if (!ref) throw new ApprovalNotFoundError(id, 'it is not a valid approval id');
    const decision = decisionFor(action, ref.callId, actionOptions);
    if ('invalid' in decision) return errorResponse(c, 400, 'invalid_request', decision.invalid);
    return sendDecisions(c, options, ref.workflowId, [decision]);
  };

  // Approve and reject take no body at all too, as Spring-style approval clients send them.
  app.openapi(
    decideRoute('approve', ApproveBody, 'Approve, optionally with modified arguments (an edit)', { optional: true }),
    async (c) => {
      const body = c.req.valid('json');
      return decide(c, 'approve', {
        args: body.modifiedArguments,
        always: body.always,
        message: body.comment,
        argsHash: body.argsHash,
      }) as never;
    },
  );

  app.openapi(
    decideRoute('reject', RejectBody, 'Reject; the reason (in the body or `?reason=`, not two different ones) reaches the model', {
      optional: true,
      query: RejectQuery,
    }),
    async (c) => {
      const body = c.req.valid('json');
      const query = c.req.valid('query').reason;
      // Which of two reasons the sender meant is not ours to guess: the model would read one, the audit would show it.
      if (body.reason !== undefined && query !== undefined && body.reason !== query) {
        return errorResponse(
          c,
          400,
          'invalid_request',
          'The reason is given twice, differently: in the body and as `?reason=`. Send one.',
        ) as never;
      }
      const message = body.reason ?? query;
      return decide(c, 'reject', { message, always: body.always, argsHash: body.argsHash }) as never;
    },
  );
  app.openapi(decideRoute('edit', EditBody, 'Run with new arguments, or as another tool'), async (c) => {
    const body = c.req.valid('json');
    return decide(c, 'edit', { args: body.arguments, name: body.name, message: body.comment, argsHash: body.argsHash }) as never;
  });

  app.openapi(decideRoute('respond', RespondBody, 'Answer for the tool: the message is the tool result'), async (c) => {
    const body = c.req.valid('json');
    return decide(c, 'respond', { message: body.message, argsHash: body.argsHash }) as never;
  });
}
