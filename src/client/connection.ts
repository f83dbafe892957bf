/** One Temporal client connection per process, shared by the CLI, the HTTP API and scripts. */
import { Client, type Connection } from '@temporalio/client';
import { agents, loadAgents } from '../agents/registry.js';
import { dataConverterFromEnv } from '../codec/data-converter.js';
import { readEnvConfig, type EnvConfig } from '../config.js';
import { connectClient } from '../connection/connect.js';
import { resolveTemporalTarget, type TemporalTarget } from '../connection/temporal-target.js';
import { tracingClientInterceptors } from '../telemetry/tracing.js';
import { HitlClient } from './hitl-client.js';

export { LARGE_MESSAGES } from '../connection/temporal-target.js';

let shared: Promise<{ connection: Connection; hitl: HitlClient }> | undefined;

/**
 * The process's client, connected with the settings from the environment and the config file's profile (or
 * `target`, when the caller resolved it already). Waits up to HITL_CONNECT_TIMEOUT_MS for an unreachable server.
 */
export function sharedHitlClient(config: EnvConfig = readEnvConfig(), target?: TemporalTarget): Promise<HitlClient> {
  shared ??= (async () => {
    const resolved = target ?? resolveTemporalTarget(config);
    const connection = await connectClient(resolved, {
      waitMs: config.HITL_CONNECT_TIMEOUT_MS,
      onRetry: (err) => console.error(`${err.message} Trying again…`),
    });
    const temporal = new Client({
      connection,
      namespace: resolved.namespace,
      dataConverter: dataConverterFromEnv(config),
      interceptors: { workflow: tracingClientInterceptors() },
    });
    return { connection, hitl: new HitlClient(temporal, config.TEMPORAL_TASK_QUEUE, {}, knownAgents(config)) };
  })();
  shared.catch(() => (shared = undefined));
  return shared.then((s) => s.hitl);
}

/**
 * The agents whose context a start is checked against before the run starts: those in code and those of
 * HITL_AGENTS_FILE, as the workers read it. A file that does not load is the worker's to refuse (and `hitl start`'s
 * and the API's, which load it themselves): here it leaves the code's agents, not every command failing.
 */
function knownAgents(config: EnvConfig) {
  try {
    return loadAgents(config);
  } catch {
    return agents;
  }
}

export async function closeSharedHitlClient(): Promise<void> {
  const current = shared;
  shared = undefined;
  if (current) await (await current).connection.close();
}
