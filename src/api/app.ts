/**
 * The HTTP approval API: list what waits, decide it, start and inspect runs. Every body is validated by the zod
 * schemas the OpenAPI document is generated from; every error is `{error: {code, message}}`.
 */
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { rateLimiter } from 'hono-rate-limiter';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import { handleApiError, errorResponse } from './api-errors.js';
import { apiLog, type ApiApp, type ApiEnv, type ApiOptions } from './api-env.js';
import { TokenVerifier } from './api-tokens.js';
import { approvalRoutes } from './approval-routes.js';
import { codecRoutes } from './codec-routes.js';
import { ErrorBody, Me } from './http-schemas.js';
import { anyCallersJsonBodies, jsonBodies } from './json-bodies.js';
import { inboxRoutes } from './inbox/inbox-routes.js';
import { runDecisionRoutes } from './run-decision-routes.js';
import { OPS_PATHS, opsRoutes } from './ops-routes.js';
import { runRoutes } from './run-routes.js';
import { streamRoutes } from './stream-routes.js';
import { toolRoutes } from './tool-routes.js';
import { allowedMethods } from './method-not-allowed.js';
import { withSharedResponses } from './shared-responses.js';
import { tracingHttpMiddleware } from '../telemetry/tracing.js';
import { inputProblems } from '../client/input-problems.js';
import { Condition } from '../schemas/condition.js';

/** Where a refused part of a request was, when not in its body. */
const WHERE: Record<string, string | undefined> = { query: 'the query string', param: 'the path', header: 'the headers' };

/**
 * A key given twice in a query string reaches its schema as an array: say that, not "expected string, received
 * array", which names a type the caller never wrote.
 */
function onceEach(error: z.ZodError): z.ZodError {
  return new z.ZodError(
    error.issues.map((issue) =>
      issue.code === 'invalid_type' && issue.message.endsWith('received array')
        ? { ...issue, message: 'given more than once: give it once' }
        : issue,
    ),
  );
}

/** Paths reachable without a token. */
const PUBLIC_PATHS = new Set(['/api/openapi.json', '/api/health']);

export type { ApiApp, ApiEnv, ApiOptions };

export function createApiApp(options: ApiOptions): ApiApp {
  const verifier = new TokenVerifier(options.tokens);
  const perMinute = options.rateLimitPerMinute ?? 300;
  const log = apiLog(options);
  const app: ApiApp = new OpenAPIHono<ApiEnv>({
    defaultHook: (result, c) => {
      if (result.success) return undefined;
      // The body's problems speak for themselves; elsewhere a caller is told where (`approve?reason=…` is refused).
      const target = (result as { target?: string }).target ?? 'json';
      const where = WHERE[target];
      const error = target === 'query' ? onceEach(result.error as z.ZodError) : (result.error as z.ZodError);
      return errorResponse(c, 400, 'invalid_request', `${where ? `In ${where}:\n` : ''}${inputProblems(error)}`);
    },
  });

  // The request's span first (the root of its trace), then its count, then its log line.
  const traceRequest = tracingHttpMiddleware();
  if (traceRequest) app.use('*', traceRequest);
  if (options.metrics) app.use('*', options.metrics.middleware());
  app.use('*', async (c, next) => {
    const started = Date.now();
    await next();
    const who = c.get('identity')?.approver ?? '-';
    // The path JSON-quoted: it is decoded, so a %0A in it would start a line of its own, a forged request.
    if (!OPS_PATHS.has(c.req.path))
      log(`[api] ${c.req.method} ${JSON.stringify(c.req.path)} ${c.res.status} ${Date.now() - started}ms ${who}`);
  });

  // Size, identity and rate limits guard the codec endpoint as much as the API.
  const limitBody = bodyLimit({
    maxSize: options.bodyLimitBytes,
    onError: (c) => errorResponse(c, 413, 'body_too_large', `Request bodies are limited to ${options.bodyLimitBytes} bytes.`),
  });
  // Who is calling (a valid token), then how often they may, then whether they may at all: unknown tokens are
  // limited by address, so guessing tokens is slow.
  const identify: MiddlewareHandler<ApiEnv> = async (c, next) => {
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim();
    const identity = token ? verifier.verify(token) : undefined;
    if (identity) c.set('identity', identity);
    return next();
  };
  const limitRate = rateLimiter<ApiEnv>({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-7',
    keyGenerator: (c) => {
      const identity = c.get('identity');
      return identity ? `approver:${identity.approver}` : `address:${getConnInfo(c).remote.address ?? 'unknown'}`;
    },
    handler: (c) => errorResponse(c, 429, 'rate_limited', `Too many requests: the limit is ${perMinute} a minute. Try again shortly.`),
  });
  // Before a body is read, a caller must have a token: one without learns nothing of how bodies are read, nor how
  // large one may be (only the rate of requests is checked before). The codec endpoint checks its own callers (it may
  // be open to callers without a token, codecAllowAnonymous), then reads bodies the same way (codec-routes.ts).
  const requireToken: MiddlewareHandler<ApiEnv> = async (c, next) => {
    if (!PUBLIC_PATHS.has(c.req.path) && !c.get('identity')) {
      throw new HTTPException(401, { message: 'Send a valid bearer token (Authorization: Bearer <token>).' });
    }
    return next();
  };
  app.use('/api/*', identify, limitRate, requireToken, limitBody, jsonBodies);
  app.use('/codec/*', identify, limitRate);

  opsRoutes(app, options);
  app.get('/api/health', (c) => c.json({ ok: true }));
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/me',
      summary: 'Who your token says you are: the approver name and groups every decision you send is taken as',
      responses: {
        200: { content: { 'application/json': { schema: Me } }, description: 'Your identity' },
        401: { content: { 'application/json': { schema: ErrorBody } }, description: 'Missing or unknown token' },
      },
    }),
    (c) => c.json(Me.parse(c.get('identity')), 200),
  );
  approvalRoutes(app, options);
  runRoutes(app, options);
  runDecisionRoutes(app, options);
  streamRoutes(app, options);
  toolRoutes(app, options);
  inboxRoutes(app);
  if (options.codec) {
    codecRoutes(app, {
      codec: options.codec,
      uiOrigins: [new URL(options.temporalUiUrl).origin],
      allowAnonymous: options.codecAllowAnonymous ?? false,
      readBodies: [limitBody, anyCallersJsonBodies],
    });
  }

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  app.openAPIRegistry.register('Condition', named(Condition, 'Condition'));
  app.openAPIRegistry.register('ErrorBody', named(ErrorBody, 'ErrorBody'));
  // Built at the first request, when every route is registered, and kept: anyone may ask for it, without a token.
  let doc: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  app.get('/api/openapi.json', (c) => {
    doc ??= withSharedResponses(
      app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: {
          title: 'temporal-hitl-agent approval API',
          version: '1.0.0',
          description: 'Decide gated tool calls of durable agent runs.',
        },
        security: [{ bearer: [] }],
      }),
      PUBLIC_PATHS,
    );
    return c.json(doc);
  });

  app.notFound((c) => {
    const allowed = allowedMethods(app, c.req.path);
    if (allowed.length === 0) return errorResponse(c, 404, 'not_found', `No route for ${c.req.method} ${c.req.path}.`);
    c.header('Allow', allowed.join(', '));
    return errorResponse(c, 405, 'method_not_allowed', `${c.req.path} takes ${allowed.join(', ')}, not ${c.req.method}.`);
  });
  app.onError(handleApiError);
  return app;
}

/**
 * A recursive schema needs a name for the OpenAPI document to refer to it: unnamed, generating the document
 * recurses without end and /api/openapi.json answers 500. The library names a schema with the `.openapi()` it adds
 * to zod's prototype, which a schema built before the library was imported (the worker's, in `npm start`) lacks:
 * call it from the prototype. On a `z.lazy`, it names the lazy schema itself, the one its own definition refers to.
 */
function named<T extends z.ZodType>(schema: T, id: string): T {
  const { openapi } = z.ZodType.prototype as unknown as { openapi: (this: T, refId: string) => T };
  return openapi.call(schema, id);
}
