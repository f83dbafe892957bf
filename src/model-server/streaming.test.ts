/**
 * With `stream: true` the scripted server streams like the Chat Completions API, checked with the real `openai`
 * client: its raw chunk iterator, and its own accumulator (`chat.completions.stream`), which assembles deltas the
 * way every OpenAI client does and fails on chunks the API would never send.
 */
import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './server.js';

const TEXT = 'Streaming works: héllo 🌍 and a few more words.';
const WEATHER = { city: 'Zürich', unit: 'celsius' };
const TIME = { zone: 'Europe/Zurich' };

let server: ModelServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startModelServer({
    script: {
      conversations: [
        { match: 'text', replies: [{ content: TEXT, chunkSize: 5 }] },
        {
          match: 'two tools',
          replies: [
            {
              content: 'Checking.',
              toolCalls: [
                { id: 'call_w', name: 'weather', arguments: WEATHER },
                { id: 'call_t', name: 'time', arguments: TIME },
              ],
              chunkSize: 3,
            },
          ],
        },
        {
          match: 'interleaved',
          replies: [
            {
              toolCalls: [
                { id: 'call_w', name: 'weather', arguments: WEATHER },
                { id: 'call_t', name: 'time', arguments: TIME },
              ],
              chunkSize: 3,
              interleaveToolCalls: true,
            },
          ],
        },
        { match: 'paced', replies: [{ content: 'one two three four', chunkSize: 4, chunkDelayMs: 60 }] },
        { match: 'rate limited', replies: [{ content: 'x', error: { status: 429, message: 'Slow down', retryAfter: 1 } }] },
        {
          match: 'breaks',
          replies: [{ content: 'partial answer that breaks', chunkSize: 4, error: { status: 500, message: 'overloaded', afterChunks: 3 } }],
        },
      ],
    },
  });
  client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server?.close());

const ask = (prompt: string, includeUsage = true) =>
  client.chat.completions.create({
    model: 'scripted-model',
    messages: [{ role: 'user', content: prompt }],
    stream: true,
    ...(includeUsage && { stream_options: { include_usage: true } }),
  });

async function collect(prompt: string, includeUsage = true): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of await ask(prompt, includeUsage)) chunks.push(chunk);
  return chunks;
}

const choiceChunks = (chunks: ChatCompletionChunk[]) => chunks.filter((c) => c.choices.length > 0);

describe('streaming chat completions', () => {
  it('streams content deltas, the finish reason in the last choice chunk, then a usage chunk', async () => {
    const chunks = await collect('text');
    expect(new Set(chunks.map((c) => c.object))).toEqual(new Set(['chat.completion.chunk']));
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    const choices = choiceChunks(chunks);
    expect(choices[0]!.choices[0]!.delta).toMatchObject({ role: 'assistant', content: '' });
    expect(choices.map((c) => c.choices[0]!.delta.content ?? '').join('')).toBe(TEXT);
    expect(choices.length).toBeGreaterThan(5);
    expect(choices.slice(0, -1).every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
    expect(choices.at(-1)!.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 1, completion_tokens: Math.ceil(TEXT.length / 4) });
    expect(choices.every((c) => c.usage === null)).toBe(true);
  });

  it('sends no usage at all unless stream_options.include_usage asks for it', async () => {
    const chunks = await collect('text', false);
    expect(chunks.every((c) => c.choices.length === 1 && !('usage' in c))).toBe(true);
  });

  it('ends the event stream with data: [DONE]', async () => {
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'text' }], stream: true }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await response.text()).split('\n\n').filter(Boolean);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
  });

  it('sends tool calls as the API does: index, id, type and name first, then argument fragments by index', async () => {
    const chunks = await collect('two tools');
    const calls = choiceChunks(chunks).flatMap((c) => c.choices[0]!.delta.tool_calls ?? []);
    for (const [index, call] of [
      [0, { id: 'call_w', name: 'weather', args: WEATHER }],
      [1, { id: 'call_t', name: 'time', args: TIME }],
    ] as const) {
      const deltas = calls.filter((d) => d.index === index);
      expect(deltas[0]).toEqual({ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } });
      expect(
        deltas.slice(1).every((d) => Object.keys(d).join() === 'index,function' && Object.keys(d.function!).join() === 'arguments'),
      ).toBe(true);
      expect(deltas.length).toBeGreaterThan(3);
      expect(JSON.parse(deltas.map((d) => d.function?.arguments ?? '').join(''))).toEqual(call.args);
    }
    // OpenAI sends one call whole before the next.
    expect(calls.findIndex((d) => d.index === 1)).toBe(calls.filter((d) => d.index === 0).length);
    expect(choiceChunks(chunks).at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('can interleave the fragments of several tool calls, and the SDK still assembles them by index', async () => {
    const chunks = await collect('interleaved');
    const order = choiceChunks(chunks).flatMap((c) => (c.choices[0]!.delta.tool_calls ?? []).map((d) => d.index));
    expect(order.slice(0, 4)).toEqual([0, 1, 0, 1]);
    // The first chunk carries the role together with the first call's header.
    expect(chunks[0]!.choices[0]!.delta).toMatchObject({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_w' }] });

    const completion = await client.chat.completions
      .stream({ model: 'm', messages: [{ role: 'user', content: 'interleaved' }], stream_options: { include_usage: true } })
      .finalChatCompletion();
    const message = completion.choices[0]!.message;
    expect(message.tool_calls?.map((c) => c.type === 'function' && [c.id, c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ['call_w', 'weather', WEATHER],
      ['call_t', 'time', TIME],
    ]);
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it("assembles content and tool calls with the SDK's own stream accumulator", async () => {
    const completion = await client.chat.completions
      .stream({ model: 'm', messages: [{ role: 'user', content: 'two tools' }], stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(completion.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { role: 'assistant', content: 'Checking.' } });
    expect(completion.choices[0]!.message.tool_calls).toHaveLength(2);
  });

  it('paces chunks, so the first arrives well before the last', async () => {
    const arrivals: number[] = [];
    for await (const chunk of await ask('paced')) if (chunk.choices[0]?.delta.content) arrivals.push(performance.now());
    expect(arrivals).toHaveLength(5);
    // Four pauses of 60 ms lie between the first content chunk and the last.
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThanOrEqual(4 * 60 - 5);
    // The server notes when each chunk left: the role, five content chunks, the finish, the usage.
    const sentAt = server.requests.at(-1)!.chunksSentAt!;
    expect(sentAt).toHaveLength(8);
    expect(sentAt.at(-1)! - sentAt[0]!).toBeGreaterThanOrEqual(7 * 60 - 5);
  });

  it('answers errors found before streaming as JSON, with the status and headers the API uses', async () => {
    const err = await ask('rate limited').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect((err as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('1');
    const empty = await client.chat.completions.create({ model: 'm', messages: [], stream: true }).catch((e: unknown) => e);
    expect(empty).toMatchObject({ status: 400, code: 'empty_array' });
    const optionsAlone = await client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'text' }], stream_options: { include_usage: true } })
      .catch((e: unknown) => e);
    expect(optionsAlone).toMatchObject({ status: 400, param: 'stream_options' });
  });

  it('fails mid-stream with an error event after the scripted number of chunks', async () => {
    const seen: ChatCompletionChunk[] = [];
    const err = await (async () => {
      for await (const chunk of await ask('breaks')) seen.push(chunk);
    })().catch((e: unknown) => e);
    expect(seen).toHaveLength(3);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as Error).message).toContain('overloaded');
    expect(server.requests.at(-1)!.status).toBe(500);
  });
});
