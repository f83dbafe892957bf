/** The part of the Chat Completions request the scripted server reads and checks. */
import { z } from 'zod';

const TextContent = z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]);

export const ChatToolCall = z.looseObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
});

export const ChatMessageIn = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content: TextContent }),
  z.looseObject({ role: z.literal('developer'), content: TextContent }),
  z.looseObject({ role: z.literal('user'), content: TextContent }),
  z.looseObject({
    role: z.literal('assistant'),
    content: TextContent.nullable().optional(),
    tool_calls: z.array(ChatToolCall).optional(),
  }),
  z.looseObject({ role: z.literal('tool'), content: TextContent, tool_call_id: z.string().min(1) }),
]);

export const ChatRequest = z.looseObject({
  model: z.string().min(1),
  messages: z.array(ChatMessageIn),
  tools: z
    .array(
      z.looseObject({
        type: z.literal('function'),
        function: z.looseObject({ name: z.string().min(1), description: z.string().optional(), parameters: z.unknown() }),
      }),
    )
    .optional(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
});

export type ChatRequest = z.infer<typeof ChatRequest>;
export type ChatMessageIn = z.infer<typeof ChatMessageIn>;
