/**
 * What a run's Workflow Stream accepts from outside, on the library's wire
 * (@temporalio/workflow-streams): a publish signal, whose items each hold a base64 protobuf `Payload`, and a
 * poll update. Only the `tokens` topic takes publishes from outside (the model activity's); the run publishes its
 * own events.
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { TOKEN_TEXT_MAX_CHARS } from './token-event.js';

export const STREAM_TOPICS = { tokens: 'tokens', events: 'events' } as const;

/** Longest item `data` (base64) a token event can need: its text fully escaped in JSON, plus the envelope. */
export const MAX_ITEM_DATA_CHARS = Math.ceil(((TOKEN_TEXT_MAX_CHARS * 6 + 512) * 4) / 3);

/**
 * Publishes carry one item per batch interval; a signal's worth is a handful. The run drops a larger publish whole,
 * so the model activity never sends one (src/activities/token-publisher.ts). @default 64
 */
export const MAX_ITEMS_PER_PUBLISH = 64;

/**
 * Characters of item data the model activity puts in one publish (at least one item, which MAX_ITEM_DATA_CHARS
 * bounds). The run takes more, but keeps only the newest 256 KiB of its stream (src/workflows/run-stream.ts): one
 * publish near that would push out text a watcher had not read yet, and Temporal refuses a signal over 2 MB.
 * @default 65536
 */
export const MAX_PUBLISH_DATA_CHARS = 64 * 1024;

export const StreamPublishInput = builtOnce('schemas/stream-wire.StreamPublishInput', () =>
  z.object({
    items: z
      .array(z.object({ topic: z.literal(STREAM_TOPICS.tokens), data: z.string().min(1).max(MAX_ITEM_DATA_CHARS) }))
      .min(1)
      .max(MAX_ITEMS_PER_PUBLISH),
    /** Empty: no deduplication (the library's rule). */
    publisher_id: z.string().max(64),
    sequence: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  }),
);

export const StreamPollInput = builtOnce('schemas/stream-wire.StreamPollInput', () =>
  z.object({
    /** Empty: every topic. */
    topics: z.array(z.enum([STREAM_TOPICS.tokens, STREAM_TOPICS.events])).max(2),
    from_offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  }),
);

/** The stream's state carried across continue-as-new (the library's `WorkflowStreamState`). */
export const StreamState = builtOnce('schemas/stream-wire.StreamState', () =>
  z.object({
    log: z.array(z.object({ topic: z.string(), data: z.string(), offset: z.number() })),
    base_offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    publisher_sequences: z.record(z.string(), z.number()),
    publisher_last_seen: z.record(z.string(), z.number()),
  }),
);

export type StreamPublishInput = z.infer<typeof StreamPublishInput>;
export type StreamPollInput = z.infer<typeof StreamPollInput>;
