/**
 * `npm start`: everything on one machine. A persistent Temporal dev server (unless TEMPORAL_ADDRESS is set), the
 * worker and the HTTP approval API; offline, the scripted model plays the demo script. Ctrl-C drains the worker,
 * closes the API, then stops the server.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startApiServer } from './api/serve.js';
import { ApiTokens, tokensFromEnv } from './api/api-tokens.js';
import { dataConverterFromEnv } from './codec/data-converter.js';
import { readEnvConfig, type EnvConfig } from './config.js';
import { connectWorker } from './connection/connect-worker.js';
import { devServerTarget, resolveTemporalTarget } from './connection/temporal-target.js';
import { modelForDemo } from './demo/offline-model.js';
import { tryItLines } from './demo/try-it.js';
import { startDevServer } from './dev/dev-server.js';
import { stopWhenNpmStops } from './dev/follow-npm.js';
import { startTracing, stopTracing } from './telemetry/tracing.js';
import { installWorkerRuntime } from './telemetry/worker-runtime.js';
import { parseJsonSetting } from './json-setting.js';
import { forgetDevServer, recordDevServer, stopLeftoverDevServer } from './dev/leftover-dev-server.js';
import { createWorkerFromEnv } from './worker.js';

/**
 * Tokens from the environment, or a pair of dev tokens kept in the state directory so they survive restarts.
 * Only the dev tokens are ever printed: configured tokens are secrets.
 */
function devTokens(config: EnvConfig, stateDir: string): { tokens: ApiTokens; printable: boolean } {
  const configured = tokensFromEnv(config);
  if (Object.keys(configured).length) return { tokens: configured, printable: false };
  const file = path.join(stateDir, 'dev-tokens.json');
  if (existsSync(file))
    return { tokens: parseJsonSetting(file, readFileSync(file, 'utf8'), ApiTokens, { secretKeys: true }), printable: true };
  const token = () => `dev-${randomBytes(18).toString('base64url')}`;
  const tokens: ApiTokens = { [token()]: { approver: 'alice', groups: ['finance'] }, [token()]: { approver: 'bob', groups: ['support'] } };
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(file, JSON.stringify(tokens, null, 2), { mode: 0o600 });
  return { tokens, printable: true };
}

async function main(): Promise<void> {
  let config = readEnvConfig();
  installWorkerRuntime(config, 'WARN');
  await startTracing(config, 'hitl');
  const stateDir = path.resolve(config.HITL_STATE_DIR);
  const encrypted = dataConverterFromEnv(config) !== undefined;
  let target = resolveTemporalTarget(config);
  if (!target.addressConfigured) {
    const leftover = await stopLeftoverDevServer(stateDir);
    if (leftover) console.log(`Stopped the dev server (pid ${leftover}) an earlier npm start left running when it was killed.`);
    console.log(`Starting the Temporal dev server (state in ${path.relative(process.cwd(), stateDir) || '.'}/dev.db)…`);
  }
  const server = target.addressConfigured
    ? undefined
    : await startDevServer({
        dbFile: path.join(stateDir, 'dev.db'),
        port: config.HITL_DEV_SERVER_PORT,
        uiPort: config.HITL_DEV_UI_PORT,
        namespace: target.namespace,
        handleSignals: false,
        forceStart: true,
        // The UI decrypts payloads through the API's codec endpoint; the dev UI sends no token, hence anonymous.
        ...(encrypted && { uiCodecEndpoint: `http://127.0.0.1:${config.HITL_API_PORT}/codec` }),
      });
  if (server) {
    target = devServerTarget(server.address, server.namespace);
    // Should this process die without stopping the server (SIGKILL, a crash), the server's supervisor stops it; should
    // the supervisor be killed too (a SIGKILL to the whole process group), the next npm start stops what is left.
    recordDevServer(stateDir, server.pid!, server.address);
    // Links the API hands out (temporalUiUrl) point at the UI of the dev server that runs, on whatever port it got.
    config = {
      ...config,
      TEMPORAL_ADDRESS: server.address,
      ...(server.uiUrl && { TEMPORAL_UI_URL: server.uiUrl }),
      ...(encrypted && { HITL_CODEC_ALLOW_ANONYMOUS: true }),
    };
  }
  const model = await modelForDemo(config);
  config = model.config;

  console.log('Bundling the workflow and starting the worker…');
  const connection = await connectWorker(target, { waitMs: config.HITL_CONNECT_TIMEOUT_MS });
  const { worker, close: closeTools } = await createWorkerFromEnv(config, connection, target.namespace);
  const running = worker.run();
  const { tokens, printable } = devTokens(config, stateDir);
  const api = await startApiServer(config, { tokens, target });

  const [aliceToken] = Object.entries(tokens).find(([, id]) => id.groups.includes('finance')) ?? Object.entries(tokens)[0] ?? [];
  console.log(
    [
      '',
      `Temporal      ${target.address}${server ? ` (dev server, state in ${path.relative(process.cwd(), path.join(stateDir, 'dev.db'))})` : ''}`,
      `Temporal UI   ${server?.uiUrl ?? config.TEMPORAL_UI_URL}`,
      `Approval API  ${api.url}/api   (OpenAPI: ${api.url}/api/openapi.json)`,
      `Encryption    ${encrypted ? `payloads encrypted (key ${config.HITL_ENCRYPTION_KEY_ID ?? 'configured'}); the UI decodes via ${api.url}/codec` : 'off (set HITL_ENCRYPTION_KEYS to encrypt payloads)'}`,
      `Inbox         ${api.url}/`,
      `Health        ${api.url}/healthz, ${api.url}/readyz; metrics ${api.url}/metrics${config.HITL_WORKER_METRICS_ADDRESS ? ` and http://${config.HITL_WORKER_METRICS_ADDRESS}/metrics (worker)` : ''}`,
      `Model         ${model.server ? `scripted demo model at ${model.server.baseURL} (set OPENAI_API_KEY for a real one)` : (config.OPENAI_BASE_URL ?? 'api.openai.com')}`,
      '',
      ...(printable
        ? [
            'Dev API tokens (kept in the state directory):',
            ...Object.entries(tokens).map(([token, id]) => `  ${id.approver} (${id.groups.join(', ') || 'no groups'}): ${token}`),
          ]
        : [`API tokens: ${Object.keys(tokens).length} from HITL_API_TOKENS (not shown)`]),
      '',
      'Try it, in another terminal in this directory:',
      ...tryItLines({
        apiUrl: api.url,
        ...(printable && aliceToken && { financeToken: aliceToken }),
        // The CLI's default, localhost:7233, is the dev server's default port.
        ...(!/^(localhost|127\.0\.0\.1):7233$/.test(config.TEMPORAL_ADDRESS!) && { temporalAddress: config.TEMPORAL_ADDRESS }),
        ...(encrypted && {
          encryption: {
            ...(config.HITL_ENCRYPTION_KEYS_FILE && { keysFile: path.resolve(config.HITL_ENCRYPTION_KEYS_FILE) }),
            ...(config.HITL_ENCRYPTION_KEY_ID && { keyId: config.HITL_ENCRYPTION_KEY_ID }),
          },
        }),
      }).map((line) => `  ${line}`),
      '',
      'Ctrl-C stops everything.',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async (exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping: draining the worker…');
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running.catch(() => {});
    await api.close();
    await model.server?.close();
    await closeTools();
    await connection.close();
    await server?.stop();
    if (server) forgetDevServer(stateDir);
    await stopTracing();
    console.log('Stopped.');
    process.exit(exitCode);
  };
  // The worker and the API have no Temporal but the dev server this process started. Should it die (killed, out of
  // memory, a crash), they would retry forever behind a banner that says all is well: say so and stop instead, with
  // a failing exit code for whatever runs npm start.
  server?.exited?.then(({ code, signal }) => {
    if (stopping) return;
    const log = path.relative(process.cwd(), path.join(stateDir, 'dev-server.log'));
    console.error(`\nThe Temporal dev server exited (${signal ?? `code ${code}`}); its log is ${log}. Run npm start again to restart it.`);
    void stop(1);
  });
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  stopWhenNpmStops();
  // The SDK also stops the worker on SIGINT/SIGTERM; either way, everything else follows it down.
  running.then(
    () => stop(),
    (err) => {
      console.error(`worker stopped: ${err instanceof Error ? err.message : err}`);
      return stop(1);
    },
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
