/**
 * The JSON script the scripted model server plays. A conversation is chosen by its first user message; the reply
 * by how many assistant messages the request already holds.
 */
import { z } from 'zod';

export const ScriptedToolCall = z.strictObject({
  /** Sent as given, even empty or odd (hostile-input tests); defaults to an id derived from the reply's position. */
  id: z.string().optional(),
  name: z.string().min(1),
  arguments: z.unknown().optional(),
  /** Sent as-is instead of `JSON.stringify(arguments)`, e.g. malformed JSON. */
  rawArguments: z.string().optional(),
});

export const ScriptedError = z.strictObject({
  status: z.number().int().min(400).max(599),
  message: z.string(),
  /** Seconds, sent as the `retry-after` header. */
  retryAfter: z.number().nonnegative().optional(),
  /** Fail this many times for the same request, then answer; fails every time when omitted. */
  times: z.number().int().positive().optional(),
  /**
   * Streaming requests only: send this many chunks first, then the error as an SSE `error` event (the HTTP
   * status is then 200, as with the real API). Otherwise the request fails before any chunk is sent.
   */
  afterChunks: z.number().int().nonnegative().optional(),
});

export const ScriptedReply = z.strictObject({
  content: z.string().nullable().optional(),
  /** Sent as the message's `content` instead, whatever it is (a model that answers with parts, numbers…). */
  rawContent: z.unknown().optional(),
  toolCalls: z.array(ScriptedToolCall).optional(),
  delayMs: z.number().int().nonnegative().optional(),
  error: ScriptedError.optional(),
  /** Use this reply for this many consecutive turns (long runs without long scripts). @default 1 */
  repeat: z.number().int().positive().optional(),
  /** Streaming: characters of content, or of one tool call's arguments, per chunk. @default 4 */
  chunkSize: z.number().int().positive().optional(),
  /** Streaming: pause before each chunk after the first, so tests can watch tokens arrive. @default 0 */
  chunkDelayMs: z.number().int().nonnegative().optional(),
  /**
   * Streaming: argument fragments of several tool calls alternate (call 0, call 1, call 0, ...), as some
   * OpenAI-compatible servers send them; OpenAI sends each call whole before the next. @default false
   */
  interleaveToolCalls: z.boolean().optional(),
});

export const ScriptedConversation = z.strictObject({
  /** Substring of the first user message, or `/regex/flags`. */
  match: z.string().min(1),
  replies: z.array(ScriptedReply).min(1),
});

export const ModelScript = z.strictObject({
  conversations: z.array(ScriptedConversation).default([]),
  /** Reply for requests no conversation matches, or past the end of a conversation's replies. */
  default: ScriptedReply.optional(),
});

export type ScriptedToolCall = z.infer<typeof ScriptedToolCall>;
export type ScriptedError = z.infer<typeof ScriptedError>;
export type ScriptedReply = z.infer<typeof ScriptedReply>;
export type ScriptedConversation = z.infer<typeof ScriptedConversation>;
export type ModelScript = z.infer<typeof ModelScript>;
export type ModelScriptInput = z.input<typeof ModelScript>;
