/**
 * The transcript, in the Chat Completions wire shape: what the run keeps is exactly what the model is sent.
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';

export const ToolCall = builtOnce('schemas/chat-message.ToolCall', () =>
  z.object({
    id: z.string().min(1),
    type: z.literal('function'),
    function: z.object({
      name: z.string(),
      /** JSON text as the model produced it; may be malformed. */
      arguments: z.string(),
    }),
  }),
);

export const SystemMessage = builtOnce('schemas/chat-message.SystemMessage', () =>
  z.object({ role: z.literal('system'), content: z.string() }),
);
export const UserMessage = builtOnce('schemas/chat-message.UserMessage', () => z.object({ role: z.literal('user'), content: z.string() }));
export const AssistantMessage = builtOnce('schemas/chat-message.AssistantMessage', () =>
  z.object({
    role: z.literal('assistant'),
    content: z.string().nullable(),
    tool_calls: z.array(ToolCall).optional(),
  }),
);
export const ToolMessage = builtOnce('schemas/chat-message.ToolMessage', () =>
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), content: z.string() }),
);

export const ChatMessage = builtOnce('schemas/chat-message.ChatMessage', () =>
  z.discriminatedUnion('role', [SystemMessage, UserMessage, AssistantMessage, ToolMessage]),
);

export type ToolCall = z.infer<typeof ToolCall>;
export type SystemMessage = z.infer<typeof SystemMessage>;
export type UserMessage = z.infer<typeof UserMessage>;
export type AssistantMessage = z.infer<typeof AssistantMessage>;
export type ToolMessage = z.infer<typeof ToolMessage>;
export type ChatMessage = z.infer<typeof ChatMessage>;
