/** One `openai` client per endpoint, shared by the activities that call a model; Temporal owns retries, so the client's own are off. */
import OpenAI from 'openai';

export function openAiClients(apiKey: string | undefined): (baseURL: string | undefined) => OpenAI {
  const clients = new Map<string, OpenAI>();
  return (baseURL) => {
    const key = baseURL ?? '';
    let client = clients.get(key);
    if (!client) {
      client = new OpenAI({ baseURL, apiKey: apiKey ?? 'unset', maxRetries: 0, timeout: 10 * 60_000 });
      clients.set(key, client);
    }
    return client;
  };
}
