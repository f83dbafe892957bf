/** A model call with `stream: true`: the reply is assembled from chunks while its text goes to the run's stream. */
import { Context } from '@temporalio/activity';
import type OpenAI from 'openai';
import { CompletionAssembly, type AssembledCompletion } from './completion-assembly.js';
import { TokenPublisher, type TokenBatching } from './token-publisher.js';

type Params = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

export async function streamModelCall(client: OpenAI, params: Params, step: number, batching: TokenBatching): Promise<AssembledCompletion> {
  const activity = Context.current();
  const publisher = TokenPublisher.forActivity(step, batching);
  const assembly = new CompletionAssembly();
  try {
    const stream = await client.chat.completions.create(
      { ...params, stream: true, stream_options: { include_usage: true } },
      { signal: activity.cancellationSignal },
    );
    for await (const chunk of stream) {
      const text = assembly.add(chunk);
      if (text) publisher?.add(text);
    }
    // The openai client ends an aborted stream quietly, as if it were complete: a cancelled call must not return.
    if (activity.cancellationSignal.aborted) throw activity.cancellationSignal.reason;
    return assembly.result();
  } finally {
    await publisher?.close();
  }
}
