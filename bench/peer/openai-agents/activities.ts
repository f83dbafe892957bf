/**
 * Activities of the OpenAI-Agents-pattern peer: the model call (what `@temporalio/openai-agents` runs as its
 * model activity) through the same `openai` client against the same scripted server as ours, and the approved
 * tool (what its `activityAsTool` runs), instant like ours.
 */
import OpenAI from 'openai';
import type { PeerMessage } from './workflows.js';

export function openaiAgentsPeerActivities(modelBaseURL: string) {
  const openai = new OpenAI({ baseURL: modelBaseURL, apiKey: 'sk-bench' });
  return {
    async peerInvokeModel(messages: PeerMessage[]): Promise<PeerMessage> {
      const completion = await openai.chat.completions.create({ model: 'scripted-model', messages: messages as never });
      const message = completion.choices[0]!.message;
      return {
        role: 'assistant',
        content: message.content ?? null,
        ...(message.tool_calls?.length && {
          tool_calls: message.tool_calls.flatMap((c) =>
            c.type === 'function'
              ? [{ id: c.id, type: 'function' as const, function: { name: c.function.name, arguments: c.function.arguments } }]
              : [],
          ),
        }),
      };
    },
    async peerWriteFile(args: string): Promise<string> {
      const { path, content } = JSON.parse(args) as { path: string; content: string };
      return `Wrote ${content.length} bytes to ${path}.`;
    },
  };
}

export type OpenaiAgentsPeerActivities = ReturnType<typeof openaiAgentsPeerActivities>;
