/**
 * Request bodies are JSON. `curl -d '{…}'` sends JSON labelled as a form (application/x-www-form-urlencoded), which
 * the README's examples and most first attempts do: a body labelled so (or not labelled) that parses as JSON is
 * taken as JSON. A body that is not JSON, nests deeper than anything the API takes, or holds a key that JSON readers
 * read differently (`__proto__`, a key named twice in one object) is refused with 400 here, before any route sees it.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import { duplicateKey } from '../bounds/duplicate-keys.js';
import { MAX_JSON_DEPTH, jsonDepthExceeds } from '../bounds/json-depth.js';
import { jsonPathText } from '../bounds/json-path.js';
import { nonFiniteNumberPath } from '../bounds/non-finite-numbers.js';
import { protoKeyRefusal } from '../bounds/proto-keys.js';
import { truncateBytes } from '../bounds/truncate.js';
import { errorResponse } from './api-errors.js';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

export const jsonBodies: MiddlewareHandler = (c, next) => checkBody(c, next, { tokenHoldersOnly: true });

/**
 * The same checks for every caller, a caller without a token included: the codec endpoint's, which may take callers
 * without a token (codecAllowAnonymous) and must read their bodies as strictly (codec-routes.ts).
 */
export const anyCallersJsonBodies: MiddlewareHandler = (c, next) => checkBody(c, next, { tokenHoldersOnly: false });

async function checkBody(c: Context, next: Next, { tokenHoldersOnly }: { tokenHoldersOnly: boolean }) {
  if (!WITH_BODY.has(c.req.method)) return next();
  // A compressed body would be read as if it were plain (gzip came back "not valid JSON"; a plain body labelled zstd
  // was taken): refused for what it is, before it is read, and before the caller is known (the codec endpoint may
  // take callers without a token, and reads bodies here too).
  const encoding = c.req.header('content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    const message = `Request bodies are taken as they are, not compressed: Content-Encoding ${truncateBytes(encoding, 100)} is not read here.`;
    return errorResponse(c, 415, 'unsupported_media_type', message);
  }
  // Only a caller with a token gets here with a body (app.ts), but for the public paths, which take none.
  if (tokenHoldersOnly && !c.get('identity')) return next();
  const type = c.req.header('content-type') ?? '';
  const text = await c.req.raw.clone().text();
  // An empty body (or only white space), labelled as JSON or not, is no body: what many clients send for a POST without
  // one. Routes that take none (approve, reject) take it, and the others say a body is required.
  if (text.trim() === '') {
    const headers = new Headers(c.req.raw.headers);
    headers.delete('content-type');
    headers.delete('content-length');
    c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers });
    return next();
  }
  // What curl -d sends, labelled or not, is meant as JSON; any other type (multipart, XML) is refused by the route (415).
  const meantAsJson = !type || ['application/json', 'application/x-www-form-urlencoded', 'text/plain'].some((t) => type.startsWith(t));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return meantAsJson ? errorResponse(c, 400, 'invalid_request', 'The body is not valid JSON.') : next();
  }
  if (jsonDepthExceeds(value, MAX_JSON_DEPTH)) {
    return errorResponse(c, 400, 'invalid_request', `The body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  const protoKey = protoKeyRefusal('body', value);
  if (protoKey) return errorResponse(c, 400, 'invalid_request', protoKey);
  // Read as Infinity, then sent on as null (JSON has no Infinity): an edit would run with a value nobody wrote.
  const nonFinite = nonFiniteNumberPath(value);
  if (nonFinite !== undefined) {
    const at = nonFinite === 'the input' ? '' : ` (at ${truncateBytes(nonFinite, 300)})`;
    return errorResponse(
      c,
      400,
      'invalid_request',
      `The body holds a number JSON cannot hold${at}: one like 1e400 is read as Infinity; nothing was taken.`,
    );
  }
  const repeated = duplicateKey(text);
  if (repeated) {
    const at = repeated.path.length ? ` (in ${truncateBytes(jsonPathText(repeated.path), 300)})` : '';
    const message = `The body names the key "${truncateBytes(repeated.key, 200)}" twice in one object${at}, which JSON readers do not all read the same way; nothing was taken.`;
    return errorResponse(c, 400, 'invalid_request', message);
  }
  if (meantAsJson) c.req.raw.headers.set('content-type', 'application/json');
  return next();
}
