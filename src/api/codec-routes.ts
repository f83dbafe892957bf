/**
 * The remote codec endpoint the Temporal UI (and `temporal --codec-endpoint`) calls to show decrypted payloads
 * to people allowed to see them: `POST /codec/decode` and `/codec/encode`, in the JSON shape the UI sends.
 */
import type { PayloadCodec } from '@temporalio/common';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import type { MiddlewareHandler } from 'hono';
import type { ApiApp, ApiEnv } from './api-env.js';
import { errorResponse } from './api-errors.js';

const JsonPayload = z.object({ metadata: z.record(z.string(), z.string()).optional(), data: z.string().optional() });
// `temporal workflow query` with no `--input` asks to encode `{}`: nothing to encode, not a malformed request.
export const RemoteCodecBody = z.object({
  payloads: z
    .array(JsonPayload)
    .nullish()
    .transform((p) => p ?? []),
});

/** What the codec takes, in the words its refusals use. */
const SHAPE = '{"payloads": [{"metadata": {"<key>": "<base64>"}, "data": "<base64>"}]}';

const fromBase64 = (value: string | undefined) => new Uint8Array(Buffer.from(value ?? '', 'base64'));
const toBase64 = (value: Uint8Array | null | undefined) => Buffer.from(value ?? new Uint8Array()).toString('base64');

export interface CodecRouteOptions {
  codec: PayloadCodec;
  /** Origins allowed to call from a browser: the Temporal UI. */
  uiOrigins: string[];
  /** Local development only: the dev server's UI sends no token. */
  allowAnonymous: boolean;
  /** The API's own body checks (size, then JSON as the API reads it), run once a caller may call. */
  readBodies: MiddlewareHandler<ApiEnv>[];
}

export function codecRoutes(app: ApiApp, { codec, uiOrigins, allowAnonymous, readBodies }: CodecRouteOptions): void {
  app.use(
    '/codec/*',
    cors({
      origin: uiOrigins,
      allowMethods: ['POST', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'Authorization', 'X-Namespace'],
      credentials: true,
    }),
  );
  // The identity (from a valid bearer token) was set by the app's shared middleware.
  // Anonymous calls (local development) send no token; one that sends a token it may not use is refused all the same.
  app.use('/codec/*', async (c, next) => {
    const anonymous = allowAnonymous && c.req.header('authorization') === undefined;
    if (c.req.method !== 'OPTIONS' && !anonymous && !c.get('identity')) {
      throw new HTTPException(401, { message: 'The codec endpoint needs a valid bearer token.' });
    }
    return next();
  });
  app.use('/codec/*', ...readBodies);

  for (const direction of ['encode', 'decode'] as const) {
    app.post(`/codec/${direction}`, async (c) => {
      // Bodies were read as the API reads them (json-bodies.ts): one labelled as something else than JSON is not.
      const type = c.req.header('content-type');
      if (type !== undefined && !type.startsWith('application/json')) {
        return errorResponse(
          c,
          415,
          'unsupported_media_type',
          `The codec takes JSON, as the Temporal UI sends; not ${type.slice(0, 100)}.`,
        );
      }
      const body: unknown = await c.req.json().catch(() => undefined);
      if (body === undefined) return errorResponse(c, 400, 'invalid_request', `The codec takes a JSON body: ${SHAPE}.`);
      const parsed = RemoteCodecBody.safeParse(body);
      if (!parsed.success) return errorResponse(c, 400, 'invalid_request', `The body is not ${SHAPE}:\n${z.prettifyError(parsed.error)}`);
      const payloads = parsed.data.payloads.map((p) => ({
        metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, fromBase64(v)])),
        data: fromBase64(p.data),
      }));
      let result: Awaited<ReturnType<PayloadCodec['decode']>>;
      try {
        result = await codec[direction](payloads);
      } catch (err) {
        // A payload sealed with another key, or changed since: the caller's input, not our failure.
        const why = err instanceof Error ? err.message : String(err);
        return errorResponse(c, 400, 'invalid_request', `The payloads could not be ${direction}d: ${why}`);
      }
      return c.json({
        payloads: result.map((p) => ({
          metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, toBase64(v)])),
          data: toBase64(p.data),
        })),
      });
    });
  }
}
