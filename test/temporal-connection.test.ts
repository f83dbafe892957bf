/**
 * Connections as production makes them: through a real TLS endpoint (an HTTP/2 proxy with its own CA in front of
 * the suite's dev server) that checks an API key the way Temporal Cloud does, or requires a client certificate
 * (mTLS). Settings come from the environment and from a profile in Temporal's config file. When the server refuses
 * us, the error names the setting to fix, on the worker's side (Rust core) and the client's (gRPC-js) alike; the
 * worker and CLI processes say it and exit non-zero.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { readEnvConfig } from '../src/config.js';
import { configFilePath } from '../src/connection/config-file.js';
import { connectClient } from '../src/connection/connect.js';
import { connectWorker } from '../src/connection/connect-worker.js';
import { resolveTemporalTarget } from '../src/connection/temporal-target.js';
import { TemporalConnectionError, type ConnectionFailure } from '../src/connection/connection-errors.js';
import { startTlsProxy, TestPki, type TlsProxy } from './helpers/tls-proxy.js';

const API_KEY = 'test-api-key-1234';
const pki = new TestPki();
const ca = pki.ca('test-ca');
const otherCa = pki.ca('other-ca');
const serverCert = pki.leaf(ca, 'temporal.test', 'serverAuth');
const clientCert = pki.leaf(ca, 'worker.test', 'clientAuth');
const strangerCert = pki.leaf(otherCa, 'stranger.test', 'clientAuth');
const configFile = path.join(pki.dir, 'temporal.toml');
let cloud: TlsProxy;
let mtls: TlsProxy;
const namespace = inject('temporalNamespace');

beforeAll(async () => {
  const upstream = inject('temporalAddress');
  cloud = await startTlsProxy({ upstream, server: serverCert, apiKey: API_KEY });
  mtls = await startTlsProxy({ upstream, server: serverCert, clientCa: ca.cert });
  writeFileSync(
    configFile,
    [
      '[profile.cloud]',
      `address = "${cloud.address}"`,
      `namespace = "${namespace}"`,
      `api_key = "${API_KEY}"`,
      '[profile.cloud.tls]',
      `server_ca_cert_path = "${ca.certPath}"`,
      'server_name = "temporal.test"',
      '[profile.mtls]',
      `address = "${mtls.address}"`,
      `namespace = "${namespace}"`,
      '[profile.mtls.tls]',
      `server_ca_cert_path = "${ca.certPath}"`,
      'server_name = "temporal.test"',
      `client_cert_path = "${clientCert.certPath}"`,
      `client_key_path = "${clientCert.keyPath}"`,
    ].join('\n'),
  );
});

afterAll(async () => {
  await cloud?.close();
  await mtls?.close();
  pki.remove();
});

/** The environment a process would see: the config file, plus these variables. */
const env = (vars: Record<string, string> = {}) => ({ TEMPORAL_CONFIG_FILE: configFile, ...vars });
const targetOf = (vars: Record<string, string>) => resolveTemporalTarget(readEnvConfig(env(vars)), {});

/** Both sides fail the same way: the reason, and a message naming each setting. */
async function expectRefused(vars: Record<string, string>, reason: ConnectionFailure, settings: string[]): Promise<void> {
  const target = targetOf(vars);
  for (const connect of [connectWorker, connectClient]) {
    const started = Date.now();
    const err = await connect(target, { waitMs: 60_000 }).then(
      async (c) => {
        await c.close();
        throw new Error(`${connect.name} connected`);
      },
      (e: unknown) => e,
    );
    expect(err, `${connect.name}: ${String(err)}`).toBeInstanceOf(TemporalConnectionError);
    const failure = err as TemporalConnectionError;
    expect(failure.reason, `${connect.name}: ${failure.message}`).toBe(reason);
    for (const setting of settings) expect(failure.message, connect.name).toContain(setting);
    // A refusal is final: no waiting out the 60 s meant for a server that is still starting.
    expect(Date.now() - started, connect.name).toBeLessThan(30_000);
  }
}

describe('connecting through a TLS endpoint', () => {
  it('connects with a profile from the config file: API key and a private CA', async () => {
    const target = targetOf({ TEMPORAL_PROFILE: 'cloud' });
    expect(target).toMatchObject({ address: cloud.address, namespace, apiKey: API_KEY, profile: 'cloud' });
    const worker = await connectWorker(target, { waitMs: 10_000 });
    const client = await connectClient(target, { waitMs: 10_000 });
    const info = await client.workflowService.describeNamespace({ namespace });
    expect(info.namespaceInfo?.name).toBe(namespace);
    await Promise.all([worker.close(), client.close()]);
  });

  it('connects with mTLS from the environment alone', async () => {
    const target = resolveTemporalTarget(
      readEnvConfig({
        TEMPORAL_CONFIG_FILE: path.join(pki.dir, 'none.toml'),
        TEMPORAL_ADDRESS: mtls.address,
        TEMPORAL_NAMESPACE: namespace,
        TEMPORAL_TLS_SERVER_CA_CERT_DATA: ca.cert,
        TEMPORAL_TLS_SERVER_NAME: 'temporal.test',
        TEMPORAL_TLS_CLIENT_CERT_PATH: clientCert.certPath,
        TEMPORAL_TLS_CLIENT_KEY_PATH: clientCert.keyPath,
      }),
      {},
    );
    const worker = await connectWorker(target, { waitMs: 10_000 });
    const client = await connectClient(target, { waitMs: 10_000 });
    await client.workflowService.getSystemInfo({});
    await Promise.all([worker.close(), client.close()]);
  });

  it('a wrong API key (the environment overriding the profile): names TEMPORAL_API_KEY', async () => {
    const before = cloud.refused;
    await expectRefused({ TEMPORAL_PROFILE: 'cloud', TEMPORAL_API_KEY: 'wrong-key' }, 'unauthenticated', [
      'TEMPORAL_API_KEY',
      'refused the API key',
    ]);
    expect(cloud.refused).toBeGreaterThan(before);
  });

  it('no credentials where the server wants them: names the API key and the client certificate', async () => {
    await expectRefused(
      { TEMPORAL_ADDRESS: cloud.address, TEMPORAL_TLS_SERVER_CA_CERT_PATH: ca.certPath, TEMPORAL_TLS_SERVER_NAME: 'temporal.test' },
      'unauthenticated',
      ['TEMPORAL_API_KEY', 'TEMPORAL_TLS_CLIENT_CERT_PATH'],
    );
  });

  it('a server certificate the client does not trust: names the server CA setting', async () => {
    await expectRefused(
      { TEMPORAL_ADDRESS: cloud.address, TEMPORAL_API_KEY: API_KEY, TEMPORAL_TLS_SERVER_NAME: 'temporal.test' },
      'server_not_trusted',
      ['TEMPORAL_TLS_SERVER_CA_CERT_PATH'],
    );
    await expectRefused({ TEMPORAL_PROFILE: 'cloud', TEMPORAL_TLS_SERVER_CA_CERT_PATH: otherCa.certPath }, 'server_not_trusted', [
      'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
      'profile "cloud"',
    ]);
  });

  it('a server certificate for another name: names TEMPORAL_TLS_SERVER_NAME', async () => {
    await expectRefused({ TEMPORAL_PROFILE: 'cloud', TEMPORAL_TLS_SERVER_NAME: 'elsewhere.test' }, 'server_name_mismatch', [
      'TEMPORAL_TLS_SERVER_NAME',
      'temporal.test',
    ]);
  });

  it('mTLS without a client certificate, or with one the server does not trust: names the client certificate', async () => {
    const noCert = {
      TEMPORAL_ADDRESS: mtls.address,
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: ca.certPath,
      TEMPORAL_TLS_SERVER_NAME: 'temporal.test',
    };
    await expectRefused(noCert, 'client_certificate_required', ['TEMPORAL_TLS_CLIENT_CERT_PATH', 'TEMPORAL_TLS_CLIENT_KEY_PATH']);
    await expectRefused(
      { ...noCert, TEMPORAL_TLS_CLIENT_CERT_PATH: strangerCert.certPath, TEMPORAL_TLS_CLIENT_KEY_PATH: strangerCert.keyPath },
      'client_certificate_refused',
      ['TEMPORAL_TLS_CLIENT_CERT_PATH'],
    );
  });

  it('plaintext to a TLS server: names TEMPORAL_TLS', async () => {
    await expectRefused({ TEMPORAL_ADDRESS: mtls.address, TEMPORAL_TLS: 'false' }, 'tls_required', ['TEMPORAL_TLS']);
  });

  it('half an mTLS pair, or an unreadable file, fails before connecting and names the setting', () => {
    expect(() => targetOf({ TEMPORAL_ADDRESS: mtls.address, TEMPORAL_TLS_CLIENT_CERT_PATH: clientCert.certPath })).toThrow(
      /TEMPORAL_TLS_CLIENT_KEY_PATH/,
    );
    expect(() => targetOf({ TEMPORAL_ADDRESS: mtls.address, TEMPORAL_TLS_SERVER_CA_CERT_PATH: path.join(pki.dir, 'missing.crt') })).toThrow(
      /TEMPORAL_TLS_SERVER_CA_CERT_PATH/,
    );
    expect(() => targetOf({ TEMPORAL_PROFILE: 'nosuch' })).toThrow(
      `the Temporal config file ${configFile} has no profile "nosuch" (TEMPORAL_PROFILE); it has "cloud", "mtls". Check TEMPORAL_PROFILE`,
    );
  });

  it('a profile asked of a config file that does not exist names the file and TEMPORAL_CONFIG_FILE', () => {
    const missing = path.join(pki.dir, 'nonexistent.toml');
    expect(() => targetOf({ TEMPORAL_CONFIG_FILE: missing, TEMPORAL_PROFILE: 'prod' })).toThrow(
      `the Temporal config file ${missing} (TEMPORAL_CONFIG_FILE) does not exist, so profile "prod" (TEMPORAL_PROFILE) cannot be read from it. Check TEMPORAL_CONFIG_FILE.`,
    );
    // The default file, under HOME: named as the default.
    const home = path.join(pki.dir, 'home');
    expect(() => resolveTemporalTarget(readEnvConfig({ TEMPORAL_PROFILE: 'prod' }), { HOME: home })).toThrow(
      `profile "prod" (TEMPORAL_PROFILE) is read from the Temporal config file, and there is none at ${configFilePath({ HOME: home }).file}, the default location.`,
    );
    // Without a profile, a missing file is no error (as for Temporal's CLI): the environment alone says where to go.
    expect(targetOf({ TEMPORAL_CONFIG_FILE: missing, TEMPORAL_ADDRESS: 'temporal.test:7233' }).address).toBe('temporal.test:7233');
    // ...but named, missing, and nothing else said, it would have meant localhost without a word.
    expect(() => targetOf({ TEMPORAL_CONFIG_FILE: missing })).toThrow(
      `the Temporal config file ${missing} (TEMPORAL_CONFIG_FILE) does not exist, and TEMPORAL_ADDRESS is not set, so nothing says where Temporal is. Check TEMPORAL_CONFIG_FILE / TEMPORAL_ADDRESS.`,
    );
  });

  it("a namespace the server does not have names TEMPORAL_NAMESPACE, not the SDK's NOT_FOUND", async () => {
    // The suite's dev server itself: the test proxy passes on no gRPC status sent without a body (a refusal's).
    await expectRefused({ TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: 'no-such-namespace' }, 'namespace_not_found', [
      'namespace "no-such-namespace" does not exist. Set TEMPORAL_NAMESPACE',
    ]);
  });

  it('a config file that does not parse is named with its line, never quoting it: it may hold the API key', () => {
    const broken = path.join(pki.dir, 'broken.toml');
    writeFileSync(broken, '[profile.prod]\napi_key = "SUPERSECRETAPIKEY123"\nnamespace = ns\n');
    let message = '';
    try {
      targetOf({ TEMPORAL_CONFIG_FILE: broken, TEMPORAL_PROFILE: 'prod' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(
      /^could not read the Temporal config file .*broken\.toml: Invalid TOML document: .* \(line 3, column \d+\)\. Check TEMPORAL_CONFIG_FILE/,
    );
    expect(message).not.toContain('SUPERSECRET');
  });
});

/** Runs an entry point as its own process; resolves with its exit code and output. */
function runProcess(args: string[], vars: Record<string, string>, until?: RegExp) {
  return new Promise<{ code: number | null; output: string; ms: number }>((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env(vars), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (d: Buffer) => {
      output += d;
      if (until?.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => resolve({ code, output, ms: Date.now() - started }));
  });
}
const WORKER = ['--import', 'tsx', 'src/worker.ts'];
const HITL = [path.resolve('bin/hitl.js')];

describe('processes', () => {
  it('a worker that cannot reach Temporal within HITL_CONNECT_TIMEOUT_MS exits non-zero, saying so', { timeout: 120_000 }, async () => {
    const closedPort = await getPort();
    const result = await runProcess(WORKER, { TEMPORAL_ADDRESS: `127.0.0.1:${closedPort}`, HITL_CONNECT_TIMEOUT_MS: '3000' });
    expect(result.code, result.output).toBe(1);
    expect(result.output).toContain(`Temporal at 127.0.0.1:${closedPort}: cannot reach`);
    expect(result.output).toContain('TEMPORAL_ADDRESS');
    expect(result.output).toMatch(/Gave up after 3s \(\d+ attempts; HITL_CONNECT_TIMEOUT_MS/);
    expect(result.ms).toBeGreaterThanOrEqual(3000);
  });

  // The polling worker bundles the workflows first: a minute or more on a loaded machine.
  it('a worker refused its API key exits non-zero at once; with the profile it polls', { timeout: 240_000 }, async () => {
    const refused = await runProcess(WORKER, { TEMPORAL_PROFILE: 'cloud', TEMPORAL_API_KEY: 'wrong-key' });
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain('refused the API key. Set TEMPORAL_API_KEY');
    const polling = await runProcess(WORKER, { TEMPORAL_PROFILE: 'cloud', TEMPORAL_TASK_QUEUE: 'tls-connection-test' }, /worker polling/);
    expect(polling.output).toContain(`worker polling tls-connection-test on ${cloud.address} (${namespace})`);
  });

  it('the CLI connects through the profile, and says which setting to fix when refused', { timeout: 120_000 }, async () => {
    const ok = await runProcess([...HITL, 'runs'], { TEMPORAL_PROFILE: 'mtls' });
    expect(ok.code, ok.output).toBe(0);
    const refused = await runProcess([...HITL, 'runs'], {
      TEMPORAL_PROFILE: 'mtls',
      TEMPORAL_TLS_CLIENT_CERT_PATH: strangerCert.certPath,
      TEMPORAL_TLS_CLIENT_KEY_PATH: strangerCert.keyPath,
    });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('refused the client certificate');
    const upstream = inject('temporalAddress');
    const nowhere = await runProcess([...HITL, 'runs'], { TEMPORAL_ADDRESS: upstream, TEMPORAL_NAMESPACE: 'nope' });
    expect(nowhere.code, nowhere.output).toBe(1);
    expect(nowhere.output).toContain(`Temporal at ${upstream}: namespace "nope" does not exist. Set TEMPORAL_NAMESPACE`);
    expect(nowhere.output).not.toContain('NOT_FOUND');
  });
});
