/**
 * `POST /api/runs/{id}/decisions`: several decisions for one run in one request, in the caller's name. The run
 * checks the whole input before applying any of it (the `decide` update plans it all first), so either every
 * decision is applied or none is, and the refusal says which one and why.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { Decision } from '../schemas/decision.js';
import type { ApiApp, ApiOptions } from './api-env.js';
import { signFor } from './approval-routes.js';
import { BatchDecisionsBody, DecisionHeaders, DecisionResponse, ErrorBody, IdParam } from './http-schemas.js';
import { decisionUpdateId } from './idempotency-key.js';

const json = <T extends z.ZodType>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });

export function batchRoutes(app: ApiApp, options: ApiOptions): void {
  const { hitl } = options;
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/runs/{id}/decisions',
      summary: 'Several decisions for one run, all applied or none',
      request: {
        params: IdParam,
        headers: DecisionHeaders,
        body: { content: { 'application/json': { schema: BatchDecisionsBody } }, required: true },
      },
      responses: {
        200: json(DecisionResponse, 'Every decision was applied'),
        400: json(ErrorBody, 'Invalid body, or a decision the run refuses (none was applied)'),
        401: json(ErrorBody, 'Missing or unknown token'),
        403: json(ErrorBody, 'You may not decide one of the calls (none was applied)'),
        404: json(ErrorBody, 'No such run or call'),
        409: json(ErrorBody, 'A call was already decided or changed since you saw it (none was applied)'),
      },
    }),
    async (c) => {
      const workflowId = c.req.valid('param').id;
      const identity = c.get('identity');
      let decisions: Decision[] = c.req.valid('json').decisions;
      if (options.signer) {
        const signer = options.signer;
        if (decisions.some((d) => d.id === undefined)) {
          const message = 'This API signs decisions, and a signed decision names its call: give each an id.';
          return c.json({ error: { code: 'invalid_request', message } }, 400);
        }
        decisions = await Promise.all(
          decisions.map((d) => signFor(hitl, signer, { workflowId, callId: d.id! }, { ...d, id: d.id! }, identity)),
        );
      }
      const input = { decisions, approver: identity.approver, groups: identity.groups };
      const key = c.req.header('idempotency-key');
      return c.json(await hitl.decide(workflowId, input, { updateId: key && decisionUpdateId(key, workflowId, input) }), 200);
    },
  );
}
