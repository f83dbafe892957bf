/** One model turn: the transcript and tool schemas go out through the real `openai` client. */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { AssistantMessage, ChatMessage } from '../schemas/chat-message.js';
import type { Usage } from '../schemas/run-state.js';
import { boundReply, type BoundedReply } from '../bounds/reply-bounds.js';
import { checkResponse, responseJsonSchema, type StructuredCheck } from '../agents/response-format.js';
import type { McpTool } from '../schemas/mcp-tool.js';
import { MESSAGES_UNAVAILABLE, type MessagesByReference } from '../contract/message-chain.js';
import { modelCallMessagesQuery } from '../contract/model-call-messages-query.js';
import { toFunctionDefinition } from '../tools/define-tool.js';
import { toolSpecs } from '../tools/registry.js';
import type { ActivityDeps } from './activity-deps.js';
import { countModelTokens } from './activity-metrics.js';
import { fromCompletion, type AssembledCompletion } from './completion-assembly.js';
import { keepHeartbeating } from './keep-heartbeating.js';
import { openAiClients } from './openai-clients.js';
import { asScheduledFor, untilCancelled } from './ask-run.js';
import { SentMessagesCache } from './sent-messages-cache.js';
import { toModelFailure } from './model-errors.js';
import { streamModelCall } from './stream-model-call.js';
import { DEFAULT_TOKEN_BATCHING } from './token-publisher.js';

export interface CallModelInput {
  agent: string;
  model: string;
  /** The messages whole, as runs sent them before patch messagesByReference; `messagesByReference` since. */
  messages?: ChatMessage[];
  messagesByReference?: MessagesByReference;
  tools: string[];
  /** The run's step, which the streamed text is marked with (older workflows do not send it). */
  step?: number;
  /** The endpoint the agent's model selector chose for this call. @default the agent's `baseURL`, else `OPENAI_BASE_URL` */
  baseURL?: string;
  /** The MCP tools among `tools`, as the run listed them when it started (absent when it has none). */
  mcpTools?: Pick<McpTool, 'name' | 'description' | 'inputSchema'>[];
}

export type { StructuredCheck };

export interface CallModelResult {
  /** The reply cut to the run's limits (src/bounds/reply-bounds.ts), so the result always fits in a payload. */
  message: AssistantMessage;
  /** What was cut from the reply, so the run can tell the model. */
  cut?: Pick<BoundedReply, 'droppedCalls' | 'cutCalls'>;
  usage: Usage;
  finishReason: string;
  /** For agents with a `responseFormat`, when the reply has no tool calls. */
  structured?: StructuredCheck;
  /**
   * For a call given its messages by reference, the chain hash of those the model was sent. Its run compares it with
   * what its own code makes of the same transcript (patch messagesSentCompared, src/workflows/sent-messages.ts).
   */
  sentHash?: string;
}

/** How long a worker that kept none of a run's messages waits for the run to give them (a query). */
const ASK_RUN_TIMEOUT_MS = 30_000;

const SUMMARY_INSTRUCTIONS =
  'Summarize this conversation for yourself, so you can continue it without the full transcript: keep facts, ' +
  'decisions (including human approvals and rejections), tool results that still matter, and open tasks. Be concise.';

export function createCallModel({ agents, model: config }: ActivityDeps) {
  const clientFor = openAiClients(config.apiKey);
  const sent = new SentMessagesCache(config.sentMessagesBytes);

  return {
    /** Writes the summary that replaces compacted messages when a long run continues as new. */
    async summarizeTranscript(input: { agent: string; model: string; messages: ChatMessage[] }): Promise<string> {
      const transcript = input.messages
        .map((m) =>
          m.role === 'assistant'
            ? `assistant: ${m.content ?? ''}${m.tool_calls ? ` [calls ${m.tool_calls.map((c) => `${c.function.name}(${c.function.arguments})`).join(', ')}]` : ''}`
            : `${m.role}: ${m.content}`,
        )
        .join('\n');
      // As callModel: a crashed worker's summary is noticed in seconds (heartbeat timeout), and cancellation reaches it.
      const stopHeartbeats = keepHeartbeating(Context.current(), 2000);
      try {
        const completion = await clientFor(agents[input.agent]?.baseURL ?? config.baseURL).chat.completions.create(
          {
            model: input.model,
            messages: [
              { role: 'system', content: SUMMARY_INSTRUCTIONS },
              { role: 'user', content: `Conversation to summarize:\n${transcript}` },
            ],
          },
          { signal: Context.current().cancellationSignal },
        );
        const usage = completion.usage;
        if (usage)
          countModelTokens(Context.current(), input.model, {
            promptTokens: usage.prompt_tokens,
            completionTokens: usage.completion_tokens,
          });
        return completion.choices[0]?.message.content ?? '';
      } catch (err) {
        throw toModelFailure(err);
      } finally {
        stopHeartbeats();
      }
    },

    async callModel(input: CallModelInput): Promise<CallModelResult> {
      const agent = agents[input.agent];
      const responseFormat = agent?.responseFormat;
      const activity = Context.current();
      const client = clientFor(input.baseURL ?? agent?.baseURL ?? config.baseURL);
      let reply: AssembledCompletion;
      const stopHeartbeats = keepHeartbeating(activity, 2000);
      try {
        const params = {
          model: input.model,
          messages: await messagesOf(input, activity, sent),
          ...(input.tools.length > 0 && { tools: functionDefinitions(input) }),
          ...(responseFormat && {
            response_format: {
              type: 'json_schema' as const,
              json_schema: { name: `${input.agent}_response`, schema: responseJsonSchema(responseFormat) },
            },
          }),
        };
        try {
          reply = config.streaming
            ? await streamModelCall(client, params, input.step ?? 0, { ...DEFAULT_TOKEN_BATCHING, ...config.streaming })
            : fromCompletion(await client.chat.completions.create(params, { signal: activity.cancellationSignal }));
        } catch (err) {
          throw toModelFailure(err);
        }
      } finally {
        stopHeartbeats();
      }
      countModelTokens(activity, input.model, reply.usage);
      // Cut to the run's limits here, so no reply, however large, can make this result exceed a payload.
      const bounded = boundReply({ content: reply.message.content, tool_calls: reply.message.tool_calls });
      const toolCalls = bounded.toolCalls.map((c) => ({
        id: c.id,
        type: 'function' as const,
        function: { name: c.name, arguments: c.arguments },
      }));
      const message: AssistantMessage = {
        role: 'assistant',
        content: bounded.content,
        ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
      };
      return {
        message,
        ...((bounded.droppedCalls > 0 || bounded.cutCalls.length > 0) && {
          cut: { droppedCalls: bounded.droppedCalls, cutCalls: bounded.cutCalls },
        }),
        usage: reply.usage,
        finishReason: reply.finishReason,
        ...(responseFormat && toolCalls.length === 0 && { structured: checkResponse(responseFormat, message.content) }),
        ...(input.messagesByReference && { sentHash: input.messagesByReference.hash }),
      };
    },
  };
}

/** The call's messages: given whole, or by reference to what its run sent before (src/contract/message-chain.ts). */
async function messagesOf(input: CallModelInput, activity: Context, sent: SentMessagesCache): Promise<ChatMessage[]> {
  if (!input.messagesByReference) return input.messages ?? [];
  const execution = activity.info.workflowExecution;
  if (!execution) throw ApplicationFailure.nonRetryable('messages by reference come only from a run', MESSAGES_UNAVAILABLE);
  const { workflowId, runId } = execution;
  const client = activity.client;
  try {
    return await sent.messagesOf(`${workflowId}/${runId}`, input.messagesByReference, (hash) =>
      // Bounded, and ended with the attempt: a cancelled or timed-out attempt does not go on asking.
      untilCancelled(
        activity.cancellationSignal,
        client.withDeadline(Date.now() + ASK_RUN_TIMEOUT_MS, () =>
          client.workflow.getHandle(workflowId, runId).query(modelCallMessagesQuery, hash),
        ),
      ),
    );
  } catch (err) {
    throw asScheduledFor(activity.info, err);
  }
}

/** Our tools' definitions derive from their zod schemas; MCP tools' are the JSON Schemas their servers listed. */
function functionDefinitions(input: CallModelInput) {
  const mcp = new Map((input.mcpTools ?? []).map((tool) => [tool.name, tool]));
  return input.tools.flatMap((name) => {
    const spec = toolSpecs[name];
    if (spec) return [toFunctionDefinition(spec)];
    const tool = mcp.get(name);
    if (!tool) return [];
    const { $schema: _ignored, ...parameters } = tool.inputSchema;
    return [{ type: 'function' as const, function: { name, description: tool.description, parameters } }];
  });
}
