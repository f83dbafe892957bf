/** Reads `GET /api/runs/:id/events` as a client does: fetch, with the bearer token, parsed by eventsource-parser. */
import { EventSourceParserStream } from 'eventsource-parser/stream';

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

export interface SseRead {
  status: number;
  events: SseEvent[];
  /** The body of a refusal (not an event stream). */
  body?: unknown;
}

/**
 * Every event until the server ends the stream, or until `until` says stop (the connection is then dropped, as a
 * client going away would).
 */
export async function readSse(
  url: string,
  options: { token: string; lastEventId?: string; until?: (event: SseEvent, all: SseEvent[]) => boolean | Promise<boolean> },
): Promise<SseRead> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: {
      authorization: `Bearer ${options.token}`,
      accept: 'text/event-stream',
      ...(options.lastEventId !== undefined && { 'last-event-id': options.lastEventId }),
    },
    signal: abort.signal,
  });
  if (!response.ok || !response.body) return { status: response.status, events: [], body: await response.json().catch(() => undefined) };
  const events: SseEvent[] = [];
  const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const event = { ...(value.id !== undefined && { id: value.id }), ...(value.event && { event: value.event }), data: value.data };
      events.push(event);
      if (await options.until?.(event, events)) break;
    }
  } finally {
    abort.abort();
    await reader.cancel().catch(() => {});
  }
  return { status: response.status, events };
}

/** The stream items among the events (`events` and `tokens`), parsed, with their offsets. */
export function itemsOf(events: SseEvent[]): { offset: number; topic: string; data: any }[] {
  return events
    .filter((e) => e.event === 'events' || e.event === 'tokens')
    .map((e) => ({ offset: Number(e.id), topic: e.event!, data: JSON.parse(e.data) }));
}
