/**
 * The answers every API route may give whatever the route: the middleware in app.ts sends them before a route runs,
 * so no route's own definition names them. The OpenAPI document adds them to each operation, so a client generated
 * from it knows 429 (with the RateLimit headers and when to try again), 413 and 415 as well as the route's own.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';

type OpenAPIObject = ReturnType<OpenAPIHono['getOpenAPI31Document']>;

type Operation = { requestBody?: unknown; responses?: Record<string, unknown> };

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };

const RATE_LIMITED = {
  headers: {
    RateLimit: { description: 'The limit, what is left of it and when the window resets (IETF draft 7)', schema: { type: 'string' } },
    'RateLimit-Policy': { description: 'The limit and its window, in seconds', schema: { type: 'string' } },
  },
  description:
    'Too many requests from this approver (or, without a valid token, this address) in the last minute (rate_limited). The RateLimit and RateLimit-Policy headers say the limit and when the window resets.',
  content: errorContent,
};
const UNAUTHORIZED = { description: 'Missing or unknown token (unauthorized)', content: errorContent };
const BODY_TOO_LARGE = { description: 'The body is larger than the API takes (body_too_large)', content: errorContent };
const UNSUPPORTED_TYPE = {
  description:
    'The body is neither JSON nor labelled as a form or text that parses as JSON, or it is compressed (a Content-Encoding other than identity) (unsupported_media_type)',
  content: errorContent,
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * The document with each operation's shared answers added where the route does not describe them itself: 429 on
 * all, 401 on all but the public paths, 413 and 415 on those that take a body.
 */
export function withSharedResponses(doc: OpenAPIObject, publicPaths: ReadonlySet<string>): OpenAPIObject {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      const shared: Record<string, unknown> = { 429: RATE_LIMITED };
      if (!publicPaths.has(path)) shared[401] = UNAUTHORIZED;
      if (operation.requestBody) Object.assign(shared, { 413: BODY_TOO_LARGE, 415: UNSUPPORTED_TYPE });
      operation.responses = { ...shared, ...operation.responses };
    }
  }
  return doc;
}
