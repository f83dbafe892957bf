/**
 * The peer: the same gated-tool agent in LangGraph.js, the way its human-in-the-loop docs build it. A model node
 * (the same scripted OpenAI-compatible server, through the same `openai` client, so the stand-in costs the same
 * on both sides) and a tool node that calls `interrupt()` before a gated tool runs; resumed with
 * `Command({ resume })`; every step checkpointed by SqliteSaver to a file.
 */
import { AIMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { END, interrupt, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { toFunctionDefinition } from '../../src/tools/define-tool.js';
import { readData } from '../../src/tools/specs/read-data.js';
import { writeFile } from '../../src/tools/specs/write-file.js';
import { benchAgent } from '../bench-agent.js';
import { markNow } from '../ipc.js';

export interface PeerMark {
  what: 'model' | 'tool';
  phase: 'start' | 'end';
  at: number;
}

export type PeerDecision = { type: 'approve' } | { type: 'reject'; message?: string };

/** The same policy and the same instant tools as the bench agent. */
const GATED = new Set(['write_file']);
const TOOLS: Record<string, (args: Record<string, unknown>) => unknown> = {
  read_data: () => '[]',
  write_file: (args) => `Wrote ${String(args.content).length} bytes to ${String(args.path)}.`,
};
const FUNCTIONS = [readData, writeFile].map((spec) => toFunctionDefinition(spec));

function toOpenAI(message: BaseMessage): ChatCompletionMessageParam {
  const text = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  switch (message.getType()) {
    case 'system':
      return { role: 'system', content: text };
    case 'human':
      return { role: 'user', content: text };
    case 'tool':
      return { role: 'tool', tool_call_id: (message as ToolMessage).tool_call_id, content: text };
    default: {
      const calls = (message as AIMessage).tool_calls ?? [];
      return {
        role: 'assistant',
        content: text || null,
        ...(calls.length && {
          tool_calls: calls.map((c) => ({
            id: c.id!,
            type: 'function' as const,
            function: { name: c.name, arguments: JSON.stringify(c.args) },
          })),
        }),
      };
    }
  }
}

export function buildPeerGraph(options: { modelBaseURL: string; checkpointFile: string; marks: Map<string, PeerMark[]> }) {
  // The openai client's own retries (its default, 2): the peer has no other retry layer, as a LangGraph app would not.
  const client = new OpenAI({ baseURL: options.modelBaseURL, apiKey: 'sk-bench', maxRetries: 2 });
  const mark = (threadId: string, what: PeerMark['what'], phase: PeerMark['phase']) => {
    let list = options.marks.get(threadId);
    if (!list) options.marks.set(threadId, (list = []));
    list.push({ what, phase, at: markNow() });
  };
  const threadOf = (config: { configurable?: Record<string, unknown> }) => String(config.configurable?.thread_id ?? '');

  const graph = new StateGraph(MessagesAnnotation)
    .addNode('model', async (state, config) => {
      mark(threadOf(config), 'model', 'start');
      const messages = [new SystemMessage(benchAgent.instructions), ...state.messages].map(toOpenAI);
      const completion = await client.chat.completions.create({ model: 'scripted-model', messages, tools: FUNCTIONS });
      const reply = completion.choices[0]!.message;
      const toolCalls = (reply.tool_calls ?? []).flatMap((c) =>
        c.type === 'function'
          ? [
              {
                id: c.id,
                name: c.function.name,
                args: JSON.parse(c.function.arguments) as Record<string, unknown>,
                type: 'tool_call' as const,
              },
            ]
          : [],
      );
      return { messages: [new AIMessage({ content: reply.content ?? '', tool_calls: toolCalls })] };
    })
    .addNode('tools', async (state, config) => {
      const last = state.messages.at(-1) as AIMessage;
      const results: ToolMessage[] = [];
      for (const call of last.tool_calls ?? []) {
        if (GATED.has(call.name)) {
          // Pauses the thread (checkpointed) until Command({ resume }) brings the decision back.
          const decision = interrupt<{ id?: string; name: string; args: unknown }, PeerDecision>({
            id: call.id,
            name: call.name,
            args: call.args,
          });
          if (decision.type !== 'approve') {
            results.push(new ToolMessage({ tool_call_id: call.id!, content: `Rejected by a human reviewer; ${call.name} did not run.` }));
            continue;
          }
        }
        mark(threadOf(config), 'tool', 'start');
        const output = TOOLS[call.name]!(call.args);
        mark(threadOf(config), 'tool', 'end');
        results.push(new ToolMessage({ tool_call_id: call.id!, content: typeof output === 'string' ? output : JSON.stringify(output) }));
      }
      return { messages: results };
    })
    .addEdge(START, 'model')
    .addConditionalEdges('model', (state) => ((state.messages.at(-1) as AIMessage).tool_calls?.length ? 'tools' : END), ['tools', END])
    .addEdge('tools', 'model');

  const checkpointer = SqliteSaver.fromConnString(options.checkpointFile);
  return { graph: graph.compile({ checkpointer }), checkpointer };
}
