/**
 * `POST /api/runs/{id}/decisions`: decisions for a run in any shape the run takes (ours, LangChain's resume,
 * LangGraph's HumanResponse), for clients that already speak one of them. The caller's token says who decides.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ACCEPTED_SHAPES, parseDecisionInput } from '../contract/seed-decisions.js';
import type { ApiApp, ApiOptions } from './api-env.js';
import { errorResponse } from './api-errors.js';
import { DecisionHeaders, DecisionResponse, ErrorBody, IdParam, NoQuery } from './http-schemas.js';
import { sendDecisions } from './send-decisions.js';

const json = <T extends z.ZodType>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });

/** Checked by the same function the run uses (parseDecisionInput), so it is described here, not validated. */
const AnyDecisionShape = z.unknown().describe(ACCEPTED_SHAPES);

export function runDecisionRoutes(app: ApiApp, options: ApiOptions): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/runs/{id}/decisions',
      summary: "Decide a run's pending calls with our decisions, LangChain's resume or LangGraph's HumanResponse",
      request: {
        params: IdParam,
        query: NoQuery,
        headers: DecisionHeaders,
        body: { content: { 'application/json': { schema: AnyDecisionShape } }, required: true },
      },
      responses: {
        200: json(DecisionResponse, 'The decisions were applied'),
        400: json(ErrorBody, 'Malformed, or naming who decides'),
        401: json(ErrorBody, 'Missing or unknown token'),
        403: json(ErrorBody, 'You may not decide a call'),
        404: json(ErrorBody, 'No such run or call'),
        409: json(ErrorBody, 'Already decided, the call changed since you saw it, or the run is stuck or closed'),
      },
    }),
    async (c) => {
      const parsed = parseDecisionInput(c.req.valid('json'));
      if (!parsed.ok) return errorResponse(c, 400, parsed.code, parsed.message) as never;
      const { approver, groups, decisions } = parsed.input;
      // A decision token names who decides as much as `approver` does: one sent here would speak for someone else (a
      // token the API could not pair with a call, or any when the API does not sign, went on to the run as it was).
      const claims =
        approver !== undefined || groups !== undefined || decisions.some((d) => d.approver !== undefined || d.token !== undefined);
      if (claims) {
        const message = 'Over HTTP your bearer token says who decides: leave out `approver`, `groups` and `token`.';
        return errorResponse(c, 400, 'invalid_request', message) as never;
      }
      return sendDecisions(c, options, c.req.valid('param').id, decisions) as never;
    },
  );
}
