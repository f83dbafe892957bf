/** `/api/runs`: start a run, inspect one, list them. */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { RunState } from '../../schemas/run-state.js';
import { RunSummary } from '../../schemas/run-summary.js';
import type { ApiApp, ApiOptions } from './app.js';
import { ErrorBody, IdParam, RunListQuery, StartRunBody, StartRunResponse } from './http-schemas.js';

const json = <T extends z.ZodType>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });

export function runRoutes(app: ApiApp, options: ApiOptions): void {
  const { hitl } = options;
  const uiUrl = (runId: string) => `${options.temporalUiUrl}/namespaces/${encodeURIComponent(options.namespace)}/workflows/${encodeURIComponent(runId)}`;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/runs',
      summary: 'Start a run; the caller is its requester',
      request: { body: { content: { 'application/json': { schema: StartRunBody } }, required: true } },
      responses: { 201: json(StartRunResponse, 'Started'), 400: json(ErrorBody, 'Invalid body'), 401: json(ErrorBody, 'Missing or unknown token') },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const { runId } = await hitl.startRun({
        ...body,
        requestedBy: c.get('identity').approver,
        ...(options.fourEyes && { approval: { fourEyes: true } }),
      });
      return c.json({ runId, temporalUiUrl: uiUrl(runId) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/runs/{id}',
      summary: 'A run: status, transcript, pending approvals, audit log, result',
      request: { params: IdParam },
      responses: { 200: json(RunState, 'The run state'), 401: json(ErrorBody, 'Missing or unknown token'), 404: json(ErrorBody, 'No such run') },
    }),
    async (c) => c.json(await hitl.getRun(c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/runs',
      summary: 'Runs, newest first, optionally by HitlStatus and agent',
      request: { query: RunListQuery },
      responses: { 200: json(z.array(RunSummary), 'Runs'), 400: json(ErrorBody, 'Invalid query'), 401: json(ErrorBody, 'Missing or unknown token') },
    }),
    async (c) => c.json(await hitl.listRuns(c.req.valid('query')), 200),
  );
}
