/** One Temporal client connection per process, shared by the CLI, the HTTP API and scripts. */
import { Client, Connection } from '@temporalio/client';
import { agents } from '../agents/registry.js';
import { dataConverterFromEnv } from '../codec/data-converter.js';
import { readEnvConfig, temporalAddress, type EnvConfig } from '../config.js';
import { HitlClient } from './hitl-client.js';

/** Long runs have large histories and transcripts; gRPC's 4 MB default is too small to read them back. */
export const LARGE_MESSAGES = { 'grpc.max_receive_message_length': 64 * 1024 * 1024 };

let shared: Promise<{ connection: Connection; hitl: HitlClient }> | undefined;

export function sharedHitlClient(config: EnvConfig = readEnvConfig()): Promise<HitlClient> {
  shared ??= (async () => {
    const connection = await Connection.connect({ address: temporalAddress(config), channelArgs: LARGE_MESSAGES });
    const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, dataConverter: dataConverterFromEnv(config) });
    return { connection, hitl: new HitlClient(temporal, config.TEMPORAL_TASK_QUEUE, agents) };
  })();
  return shared.then((s) => s.hitl);
}

export async function closeSharedHitlClient(): Promise<void> {
  const current = shared;
  shared = undefined;
  if (current) await (await current).connection.close();
}
