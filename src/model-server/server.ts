/**
 * An OpenAI-compatible Chat Completions server that plays a JSON script: the offline stand-in for a real model.
 * It speaks real HTTP and answers the way the API does, so the real `openai` client path is what gets tested.
 */
import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { listen } from '../api/listen.js';
import { ChatRequest } from './chat-request.js';
import { completionChunks } from './completion-chunks.js';
import { findRequestProblem } from './request-checks.js';
import { selectReply, textOf } from './reply-selection.js';
import { ModelScript, type ModelScriptInput, type ScriptedError } from './script-schema.js';

export interface RecordedRequest {
  /** Wall-clock milliseconds with a fraction (the benchmark times spans of a few milliseconds against it). */
  receivedAt: number;
  /** The JSON body as sent (headers, and so the API key, are never recorded). */
  body: unknown;
  status: number;
  /** Streamed replies: when each chunk was written (epoch ms), for measuring how long text takes to reach watchers. */
  chunksSentAt?: number[];
}

export interface ModelServerOptions {
  script: ModelScriptInput;
  /** @default 0 (a free port) */
  port?: number;
  /** @default '127.0.0.1' */
  hostname?: string;
  /** When set, requests must carry exactly this bearer key; otherwise any non-empty key is accepted. */
  apiKey?: string;
}

export interface ModelServer {
  /** Base URL for the `openai` client (ends in `/v1`). */
  baseURL: string;
  port: number;
  readonly requests: readonly RecordedRequest[];
  /** Chat requests answered successfully, in arrival order. */
  completions(): ChatRequest[];
  setScript(script: ModelScriptInput): void;
  clearRequests(): void;
  close(): Promise<void>;
}

type ErrorType = 'invalid_request_error' | 'authentication_error' | 'server_error' | 'rate_limit_error';

function openAiError(
  c: Context,
  status: number,
  message: string,
  type: ErrorType,
  param: string | null = null,
  code: string | null = null,
) {
  return c.json({ error: { message, type, param, code } }, status as 400);
}

function errorTypeFor(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

/**
 * Server-Sent Events as the API sends them: one `data:` line per chunk, then `data: [DONE]`. A mid-stream error
 * is a `data:` line holding `{error}` (the `openai` client throws it), after which the stream ends.
 */
function streamChunks(
  c: Context,
  chunks: object[],
  { delayMs, midStreamError, sentAt }: { delayMs: number; midStreamError?: ScriptedError; sentAt: number[] },
) {
  return streamSSE(c, async (sse) => {
    for (const [i, chunk] of chunks.entries()) {
      if (midStreamError && i === midStreamError.afterChunks) {
        const { status, message } = midStreamError;
        await sse.writeSSE({ data: JSON.stringify({ error: { message, type: errorTypeFor(status), param: null, code: null } }) });
        return;
      }
      if (i > 0 && delayMs > 0) await sse.sleep(delayMs);
      await sse.writeSSE({ data: JSON.stringify(chunk) });
      sentAt.push(Date.now());
    }
    await sse.writeSSE({ data: '[DONE]' });
  });
}

export function createModelServerApp(options: Omit<ModelServerOptions, 'port' | 'hostname'>) {
  let script = ModelScript.parse(options.script);
  const requests: RecordedRequest[] = [];
  /** Failures served per identical request body, for `error.times`. */
  const failuresServed = new Map<string, number>();
  const app = new Hono();

  app.use('/v1/*', async (c, next) => {
    const key = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    if (!key || (options.apiKey !== undefined && key !== options.apiKey)) {
      return openAiError(c, 401, 'Incorrect API key provided.', 'authentication_error', null, 'invalid_api_key');
    }
    return next();
  });

  app.get('/v1/models', (c) =>
    c.json({
      object: 'list',
      data: ['scripted-model', 'gpt-4.1', 'gpt-4.1-mini'].map((id) => ({
        id,
        object: 'model',
        created: 1_700_000_000,
        owned_by: 'scripted',
      })),
    }),
  );

  app.post('/v1/chat/completions', async (c) => {
    const raw = await c.req.text();
    const record = (status: number, body: unknown): RecordedRequest => {
      const recorded = { receivedAt: performance.timeOrigin + performance.now(), body, status };
      requests.push(recorded);
      return recorded;
    };
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      record(400, raw);
      return openAiError(c, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
    }
    const parsed = ChatRequest.safeParse(body);
    if (!parsed.success) {
      record(400, body);
      const issue = parsed.error.issues[0]!;
      return openAiError(c, 400, `Invalid '${issue.path.join('.')}': ${issue.message}`, 'invalid_request_error', issue.path.join('.'));
    }
    const request = parsed.data;
    const problem = findRequestProblem(request);
    if (problem) {
      record(400, body);
      return openAiError(c, 400, problem.message, 'invalid_request_error', problem.param, problem.code);
    }

    const selected = selectReply(script, request);
    const { reply } = selected;
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));

    const digest = createHash('sha256').update(raw).digest('hex');
    let midStreamError: ScriptedError | undefined;
    let recorded: RecordedRequest | undefined;
    if (reply.error) {
      const served = failuresServed.get(digest) ?? 0;
      if (reply.error.times === undefined || served < reply.error.times) {
        failuresServed.set(digest, served + 1);
        recorded = record(reply.error.status, body);
        if (request.stream && reply.error.afterChunks !== undefined) midStreamError = reply.error;
        else {
          if (reply.error.retryAfter !== undefined) c.header('retry-after', String(reply.error.retryAfter));
          return openAiError(c, reply.error.status, reply.error.message, errorTypeFor(reply.error.status));
        }
      }
    }

    recorded = midStreamError ? recorded! : record(200, body);
    const content = reply.content ?? null;
    const promptTokens = Math.ceil(request.messages.reduce((n, m) => n + textOf(m.content).length, 0) / 4);
    const completionTokens = Math.ceil(((content ?? '').length + selected.toolCalls.reduce((n, t) => n + t.arguments.length, 0)) / 4);
    const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
    const id = `chatcmpl-${digest.slice(0, 24)}`;
    const created = Math.floor(Date.now() / 1000);
    if (request.stream) {
      const includeUsage = request.stream_options?.include_usage === true;
      const chunks = completionChunks(selected, { id, created, model: request.model, includeUsage, usage });
      recorded.chunksSentAt = [];
      return streamChunks(c, chunks, { delayMs: reply.chunkDelayMs ?? 0, midStreamError, sentAt: recorded.chunksSentAt });
    }
    return c.json({
      id,
      object: 'chat.completion',
      created,
      model: request.model,
      system_fingerprint: 'fp_scripted',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: reply.rawContent !== undefined ? reply.rawContent : content,
            refusal: null,
            ...(selected.toolCalls.length > 0 && {
              tool_calls: selected.toolCalls.map((t) => ({
                id: t.id,
                type: 'function',
                function: { name: t.name, arguments: t.arguments },
              })),
            }),
          },
          logprobs: null,
          finish_reason: selected.toolCalls.length > 0 ? 'tool_calls' : 'stop',
        },
      ],
      usage,
    });
  });

  // Inspection and control, for tests and tools that run the server in another process.
  app.get('/_scripted/requests', (c) => c.json(requests));
  app.delete('/_scripted/requests', (c) => {
    requests.length = 0;
    return c.body(null, 204);
  });
  app.put('/_scripted/script', async (c) => {
    const parsed = ModelScript.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) return c.json({ error: { message: parsed.error.message } }, 400);
    script = parsed.data;
    failuresServed.clear();
    return c.body(null, 204);
  });

  return {
    app,
    requests,
    setScript(next: ModelScriptInput) {
      script = ModelScript.parse(next);
      failuresServed.clear();
    },
  };
}

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const { app, requests, setScript } = createModelServerApp(options);
  const listening = await listen(app, { port: options.port, hostname: options.hostname });
  return {
    baseURL: `${listening.url}/v1`,
    port: listening.port,
    requests,
    completions: () => requests.filter((r) => r.status === 200).map((r) => r.body as ChatRequest),
    setScript,
    clearRequests: () => {
      requests.length = 0;
    },
    close: listening.close,
  };
}
