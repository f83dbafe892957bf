/** Runs the HTTP API against Temporal (`npm run api`); `npm start` embeds the same server. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataConverterFromEnv } from '../codec/data-converter.js';
import { loadAgents } from '../agents/registry.js';
import { readEnvConfig, type EnvConfig } from '../config.js';
import type { TemporalTarget } from '../connection/temporal-target.js';
import { decisionSignerFromConfig } from '../signing/signing-config.js';
import { startTracing, stopTracing } from '../telemetry/tracing.js';
import { listen, type Listening } from './listen.js';
import { sharedHitlClient } from '../client/connection.js';
import type { HitlClient } from '../client/hitl-client.js';
import { countPendingApprovals } from '../client/pending-count.js';
import { ApiMetrics } from './api-metrics.js';
import { checkSomeoneCanCall, checkTokensSendable, hostNotes } from './api-start-checks.js';
import { tokensFromEnv, type ApiTokens } from './api-tokens.js';
import { createApiApp } from './app.js';
import { stopWhenNpmStops } from '../dev/follow-npm.js';

export async function startApiServer(
  config: EnvConfig,
  options: { hitl?: HitlClient; tokens?: ApiTokens; target?: TemporalTarget } = {},
): Promise<Listening> {
  // Settings first: a bad one stops the API at once, not after Temporal answers (which may be never).
  const tokens = options.tokens ?? tokensFromEnv(config);
  checkTokensSendable(tokens, config);
  const warnings = checkSomeoneCanCall(tokens, config);
  const agents = loadAgents(config);
  const signer = decisionSignerFromConfig(config);
  const codec = dataConverterFromEnv(config)?.payloadCodecs?.[0];
  const hitl = options.hitl ?? (await sharedHitlClient(config, options.target));
  const app = createApiApp({
    hitl,
    tokens,
    fourEyes: config.HITL_FOUR_EYES,
    bodyLimitBytes: config.HITL_API_BODY_LIMIT_BYTES,
    rateLimitPerMinute: config.HITL_API_RATE_LIMIT,
    temporalUiUrl: config.TEMPORAL_UI_URL,
    namespace: hitl.temporal.options.namespace,
    codec,
    codecAllowAnonymous: config.HITL_CODEC_ALLOW_ANONYMOUS,
    agents,
    signer,
    metrics: new ApiMetrics(() => countPendingApprovals(hitl.temporal)),
  });
  const listening = await listen(app, { port: config.HITL_API_PORT, hostname: config.HITL_API_HOST });
  for (const line of [...warnings, ...hostNotes(config, listening.url)]) console.warn(line);
  return listening;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const config = readEnvConfig();
  startTracing(config, 'hitl-api')
    .then(() => startApiServer(config))
    .then((api) => {
      console.log(`approval API on ${api.url}/api (OpenAPI: ${api.url}/api/openapi.json; health: /healthz, /readyz; /metrics)`);
      const stop = () =>
        api
          .close()
          .then(stopTracing)
          .then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      stopWhenNpmStops();
    })
    .catch((err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
