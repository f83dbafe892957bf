/** Runs the HTTP API against Temporal (`npm run api`); `npm start` embeds the same server. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataConverterFromEnv } from '../codec/data-converter.js';
import { loadAgents } from '../agents/registry.js';
import { readEnvConfig, type EnvConfig } from '../config.js';
import { decisionSignerFromConfig } from '../signing/signing-config.js';
import { listen, type Listening } from './listen.js';
import { sharedHitlClient } from '../client/connection.js';
import type { HitlClient } from '../client/hitl-client.js';
import { tokensFromEnv, type ApiTokens } from './api-tokens.js';
import { createApiApp } from './app.js';

export async function startApiServer(config: EnvConfig, options: { hitl?: HitlClient; tokens?: ApiTokens } = {}): Promise<Listening> {
  const app = createApiApp({
    hitl: options.hitl ?? (await sharedHitlClient(config)),
    tokens: options.tokens ?? tokensFromEnv(config),
    fourEyes: config.HITL_FOUR_EYES,
    bodyLimitBytes: config.HITL_API_BODY_LIMIT_BYTES,
    rateLimitPerMinute: config.HITL_API_RATE_LIMIT,
    temporalUiUrl: config.TEMPORAL_UI_URL,
    namespace: config.TEMPORAL_NAMESPACE,
    codec: dataConverterFromEnv(config)?.payloadCodecs?.[0],
    codecAllowAnonymous: config.HITL_CODEC_ALLOW_ANONYMOUS,
    agents: loadAgents(config),
    signer: decisionSignerFromConfig(config),
  });
  return listen(app, { port: config.HITL_API_PORT, hostname: config.HITL_API_HOST });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const config = readEnvConfig();
  startApiServer(config)
    .then((api) => {
      console.log(`approval API on ${api.url}/api (OpenAPI: ${api.url}/api/openapi.json)`);
      const stop = () => api.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    })
    .catch((err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
