/** `/api/runs`: start a run, inspect one, list them. */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { RunState } from '../schemas/run-state.js';
import { UserMessageInput } from '../schemas/session.js';
import { ListedRun } from '../schemas/run-summary.js';
import { checkRunStart } from '../agents/check-run-start.js';
import type { ApiApp, ApiOptions } from './api-env.js';
import { runLinks } from './run-links.js';
import { EndRunBody, ErrorBody, IdParam, NoBody, NoQuery, RunListQuery, RunQuery, StartRunBody, StartRunResponse } from './http-schemas.js';

/** Over HTTP the sender is the caller's identity, not a field. */
const MessageBody = UserMessageInput.pick({ content: true });

const json = <T extends z.ZodType>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });

export function runRoutes(app: ApiApp, options: ApiOptions): void {
  const { hitl } = options;
  const links = runLinks(options);

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/runs',
      summary: 'Start a run; the caller is its requester',
      request: { query: NoQuery, body: { content: { 'application/json': { schema: StartRunBody } }, required: true } },
      responses: {
        201: json(StartRunResponse, 'Started'),
        400: json(ErrorBody, 'Invalid body'),
        401: json(ErrorBody, 'Missing or unknown token'),
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const approval = (options.fourEyes || body.approval) && { ...body.approval, ...(options.fourEyes && { fourEyes: true }) };
      const requestedBy = c.get('identity').approver;
      if (options.agents) checkRunStart(options.agents, { agent: body.agent, approval, interrupt: body.interrupt, requestedBy });
      // With the signing key, the run can prove who asked: the caller the API authenticated.
      const { workflowId, runId } = await hitl.startRun(
        { ...body, requestedBy, ...(approval && { approval }) },
        { ...(options.signer && { signer: options.signer }) },
      );
      return c.json({ workflowId, runId, temporalUiUrl: links.ui(workflowId) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/runs/{id}',
      summary: 'A run: status, transcript, pending approvals, audit log, result; for a stuck run, the problem',
      request: { params: IdParam, query: RunQuery },
      responses: {
        200: json(RunState, 'The run state'),
        400: json(ErrorBody, 'Invalid query'),
        401: json(ErrorBody, 'Missing or unknown token'),
        404: json(ErrorBody, 'No such run, or not an agent run'),
      },
    }),
    async (c) => c.json(await hitl.getRun(c.req.valid('param').id, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/runs/{id}/messages',
      summary: 'Send the next user message to a session run (queued while a turn runs)',
      request: { params: IdParam, query: NoQuery, body: { content: { 'application/json': { schema: MessageBody } }, required: true } },
      responses: {
        202: json(z.object({ queued: z.number().int() }), 'Queued for the next turn'),
        400: json(ErrorBody, 'Invalid body'),
        401: json(ErrorBody, 'Missing or unknown token'),
        403: json(ErrorBody, 'The run was asked for by someone else (not_requester)'),
        404: json(ErrorBody, 'No such run, or not an agent run'),
        409: json(ErrorBody, 'Not a session, the session has ended, or the run is stuck (run_stuck)'),
        429: json(ErrorBody, 'The run holds as many queued messages as it takes (queue_full): send again after its next turn starts'),
      },
    }),
    async (c) => {
      const caller = c.get('identity').approver;
      return c.json(await hitl.say(c.req.valid('param').id, c.req.valid('json').content, { from: caller, caller }), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/runs/{id}/end',
      summary: 'Close a session run after its current turn',
      request: { params: IdParam, query: NoQuery, body: { content: { 'application/json': { schema: EndRunBody } }, required: false } },
      responses: {
        202: json(z.object({ ending: z.literal(true) }), 'The session ends after its current turn'),
        400: json(ErrorBody, 'A query string, or a body other than `{}` or `{"reason": "…"}`'),
        401: json(ErrorBody, 'Missing or unknown token'),
        403: json(ErrorBody, 'The run was asked for by someone else (not_requester)'),
        404: json(ErrorBody, 'No such run, or not an agent run'),
        409: json(ErrorBody, 'Not a session, the session has ended, or the run is stuck (run_stuck)'),
      },
    }),
    async (c) => {
      const caller = c.get('identity').approver;
      const reason = c.req.valid('json')?.reason;
      await hitl.endSession(c.req.valid('param').id, `by ${caller} over HTTP${reason ? `: ${reason}` : ''}`, { caller });
      return c.json({ ending: true as const }, 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/runs/{id}/cancel',
      summary: 'Cancel a run: what it waits for is cancelled, and it ends Canceled with its audit log',
      request: { params: IdParam, query: NoQuery, body: { content: { 'application/json': { schema: NoBody } }, required: false } },
      responses: {
        202: json(z.object({ cancelling: z.literal(true) }), 'The run is asked to cancel'),
        400: json(ErrorBody, 'A query string or a body (other than `{}`), which this route does not take'),
        401: json(ErrorBody, 'Missing or unknown token'),
        403: json(ErrorBody, 'The run was asked for by someone else (not_requester)'),
        404: json(ErrorBody, 'No such run, or not an agent run'),
        409: json(ErrorBody, 'The run has already closed (run_closed)'),
      },
    }),
    async (c) => c.json(await hitl.cancel(c.req.valid('param').id, { caller: c.get('identity').approver }), 202),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/runs',
      summary:
        'Runs, newest first, optionally by status and agent; an open run says when it is stuck (why) or retrying (what); `stuck=true` lists stuck runs only',
      request: { query: RunListQuery },
      responses: {
        200: json(z.array(ListedRun), 'Runs'),
        400: json(ErrorBody, 'Invalid query'),
        401: json(ErrorBody, 'Missing or unknown token'),
      },
    }),
    async (c) => {
      const { stuck, ...filter } = c.req.valid('query');
      return c.json(stuck === 'true' ? await hitl.listStuck(filter) : await hitl.listRuns(filter), 200);
    },
  );
}
