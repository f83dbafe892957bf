/**
 * Without OPENAI_API_KEY or OPENAI_BASE_URL, `npm start` and `npm run demo` serve the demo script from the
 * scripted model server, so everything runs offline through the real `openai` client.
 */
import { readFileSync } from 'node:fs';
import type { EnvConfig } from '../config.js';
import { startModelServer, type ModelServer } from '../model-server/server.js';

export const DEMO_SCRIPT_PATH = new URL('./demo-script.json', import.meta.url);

export async function modelForDemo(config: EnvConfig): Promise<{ config: EnvConfig; server?: ModelServer }> {
  if (config.OPENAI_API_KEY || config.OPENAI_BASE_URL) return { config };
  const server = await startModelServer({ script: JSON.parse(readFileSync(DEMO_SCRIPT_PATH, 'utf8')) });
  return { config: { ...config, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'offline-demo' }, server };
}
