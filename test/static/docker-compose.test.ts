/**
 * docker-compose.yml cannot run here (no Docker engine), so it is checked statically: valid against the Compose
 * Specification schema (test/fixtures/compose-spec.json, from compose-spec/compose-go v2.16.2, Apache-2.0) and
 * consistent with the code: services, search attributes, env vars, commands and ports.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EnvConfig } from '../../src/config.js';
import { searchAttributeCliPairs } from '../../src/contract/search-attributes.js';
import { DEFAULT_TASK_QUEUE } from '../../src/contract/task-queue.js';
import { DEV_SERVER_DYNAMIC_CONFIG } from '../../src/dev/dev-server.js';
import { composeErrors, loadCompose } from '../helpers/compose.js';

const compose = loadCompose();
const services = compose.services;
const envKeys = Object.keys(EnvConfig.shape);
const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
/** The value a `${VAR:-default}` interpolation takes when VAR is unset. */
const resolved = (value: string | number | undefined) => String(value ?? '').replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification', () => {
    // Compose resolves YAML merge keys (`<<: *anchor`) before it validates; so do we.
    expect(composeErrors(compose)).toEqual([]);
    // And the check has teeth: a misspelt key or a wrong type is caught.
    expect(composeErrors({ ...compose, services: { ...services, api: { ...services.api, portz: ['1:1'] } } })).not.toEqual([]);
    expect(composeErrors({ ...compose, services: { ...services, api: { ...services.api, depends_on: 'temporal' } } })).not.toEqual([]);
  });

  it('has Temporal on PostgreSQL from the current images (no auto-setup), its setup steps, the UI, the worker and the API', () => {
    expect(Object.keys(services).sort()).toEqual([
      'api',
      'postgresql',
      'temporal',
      'temporal-schema',
      'temporal-setup',
      'temporal-ui',
      'worker',
    ]);
    expect(services.temporal!.image).toMatch(/^temporalio\/server:/);
    for (const name of ['temporal-schema', 'temporal-setup']) expect(services[name]!.image).toMatch(/^temporalio\/admin-tools:/);
    expect(Object.values(services).filter((service) => service.image?.includes('auto-setup'))).toEqual([]);
    expect(services.temporal!.environment).toMatchObject({ POSTGRES_SEEDS: 'postgresql' });
  });

  it('starts the schema, the server and the namespace setup in order, each when the one before is ready', () => {
    expect(services.temporal!.depends_on).toEqual({ 'temporal-schema': { condition: 'service_completed_successfully' } });
    expect(services['temporal-schema']!.depends_on).toEqual({ postgresql: { condition: 'service_healthy' } });
    expect(services['temporal-setup']!.depends_on).toEqual({ temporal: { condition: 'service_healthy' } });
    for (const name of ['postgresql', 'temporal']) expect(services[name]!.healthcheck?.test.length).toBeGreaterThan(1);
    for (const name of ['temporal-ui', 'worker', 'api'])
      expect(services[name]!.depends_on).toEqual({ 'temporal-setup': { condition: 'service_completed_successfully' } });
  });

  it('runs deploy/temporal-setup.sh, the script the cluster suite runs, for the schema and then the namespace', () => {
    for (const [name, phase] of [
      ['temporal-schema', 'schema'],
      ['temporal-setup', 'namespace'],
    ] as const) {
      const service = services[name]!;
      const [source, target] = service.volumes![0]!.split(':');
      expect(source).toBe('./deploy/temporal-setup.sh');
      expect(service.entrypoint).toEqual(['sh', target]);
      expect(service.command).toEqual([phase]);
    }
  });

  it('runs the server with deploy/temporal-server.yaml, filled from variables the template reads', () => {
    const temporal = services.temporal!;
    const [source, target] = temporal.volumes!.find((v) => v.includes('temporal-server.yaml'))!.split(':');
    const entry = temporal.entrypoint!;
    const flag = (name: string) => entry[entry.indexOf(name) + 1]!;
    expect(path.posix.join(flag('--root'), flag('--config'), `${flag('--env')}.yaml`)).toBe(target);
    expect(entry.at(-1)).toBe('start');
    const template = readFileSync(source!, 'utf8');
    const read = new Set([...template.matchAll(/env "([A-Z_]+)"/g)].map((m) => m[1]));
    expect(Object.keys(temporal.environment!).filter((key) => !read.has(key))).toEqual([]);
  });

  it('gives the server the dynamic config the dev server runs with', () => {
    const temporal = services.temporal!;
    const [source, target] = temporal.volumes!.find((v) => v.includes('temporal-dynamic-config.yaml'))!.split(':');
    expect(temporal.environment!.DYNAMIC_CONFIG_FILE_PATH).toBe(target);
    const fileConfig = parse(readFileSync(source!, 'utf8')) as Record<string, { value: unknown }[]>;
    expect(Object.fromEntries(Object.entries(fileConfig).map(([key, [first]]) => [key, first!.value]))).toEqual(DEV_SERVER_DYNAMIC_CONFIG);
  });

  it('registers exactly the search attributes the workflow upserts', () => {
    const script = readFileSync('deploy/temporal-setup.sh', 'utf8');
    const registered = /HITL_SEARCH_ATTRIBUTES:=([^}"]+)/.exec(script)![1]!.trim().split(/\s+/);
    expect(registered).toEqual(searchAttributeCliPairs());
  });

  it('gives the worker and the API only env vars the code reads, with the contract task queue', () => {
    for (const name of ['worker', 'api']) {
      const env = services[name]!.environment!;
      expect(Object.keys(env).filter((key) => !envKeys.includes(key))).toEqual([]);
      expect(env.TEMPORAL_ADDRESS).toBe('temporal:7233');
      expect(env.TEMPORAL_TASK_QUEUE).toBe(DEFAULT_TASK_QUEUE);
      const parsed = EnvConfig.safeParse(
        Object.fromEntries(
          Object.entries(env)
            .map(([k, v]) => [k, resolved(v).replace(/\$\{[A-Z_]+:\?[^}]*\}/, k === 'HITL_API_TOKENS' ? '{}' : 'set')])
            .filter(([, v]) => v !== ''),
        ),
      );
      expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    }
    expect(services.worker!.environment!.OPENAI_API_KEY).toMatch(/^\$\{OPENAI_API_KEY:\?/);
    expect(services.api!.environment!.HITL_API_TOKENS).toMatch(/^\$\{HITL_API_TOKENS:\?/);
  });

  it("runs the npm scripts' commands themselves, so docker stop's SIGTERM reaches node, from an image the Dockerfile builds", () => {
    expect(existsSync('Dockerfile')).toBe(true);
    for (const name of ['worker', 'api']) {
      const command = [services[name]!.command].flat() as string[];
      // Not `npm run <script>`: npm passes the signal to a shell, which dies without handing it on.
      expect(command.join(' ')).toBe(scripts[name]);
      expect(existsSync(command.at(-1)!)).toBe(true);
      expect(services[name]!.build).toBe('.');
    }
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync('Dockerfile', 'utf8'))![1]!;
    expect((JSON.parse(cmd) as string[]).join(' ')).toBe(scripts.worker);
  });

  it('keeps Temporal and its UI on this host, the UI read-only: whoever reaches either can claim any approver', () => {
    for (const name of ['temporal', 'temporal-ui']) {
      const ports = services[name]!.ports!;
      expect(ports.length, name).toBeGreaterThan(0);
      for (const port of ports) expect(port, name).toMatch(/^127\.0\.0\.1:/);
    }
    expect(services['temporal-ui']!.environment!.TEMPORAL_DISABLE_WRITE_ACTIONS).toBe('true');
  });

  it('passes what the worker and the API must agree on to both from the shell, so none is dropped', () => {
    const shared = [
      ...['HITL_ENCRYPTION_KEYS', 'HITL_ENCRYPTION_KEY_ID', 'HITL_SIGNING_KEY', 'HITL_TRUSTED_JWKS', 'HITL_REQUIRE_SIGNED_DECISIONS'],
      ...['HITL_TOKEN_ISSUER', 'HITL_TOKEN_AUDIENCE', 'HITL_OIDC_ISSUER', 'HITL_OIDC_AUDIENCE', 'HITL_OIDC_JWKS', 'HITL_OIDC_GROUPS_CLAIM'],
    ];
    for (const name of ['worker', 'api']) {
      const env = services[name]!.environment!;
      // `${NAME:-}`: the shell's value, and when it has none, the code's default (an empty variable is unset).
      expect(Object.fromEntries(shared.map((key) => [key, env[key]])), name).toEqual(
        Object.fromEntries(shared.map((key) => [key, `\${${key}:-}`])),
      );
    }
    for (const key of ['HITL_API_RATE_LIMIT', 'HITL_API_BODY_LIMIT_BYTES']) expect(services.api!.environment![key]).toBe(`\${${key}:-}`);
  });

  it('publishes the API on the port it listens on, and links to the UI it publishes', () => {
    const api = services.api!;
    expect(api.environment!.HITL_API_HOST).toBe('0.0.0.0');
    expect(api.ports).toEqual([`${api.environment!.HITL_API_PORT}:${api.environment!.HITL_API_PORT}`]);
    const uiPort = services['temporal-ui']!.ports![0]!.split(':').at(-2);
    expect(api.environment!.TEMPORAL_UI_URL).toBe(`http://localhost:${uiPort}`);
    expect(services['temporal-ui']!.environment!.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(services['temporal-ui']!.environment!.TEMPORAL_CODEC_ENDPOINT).toBe(`http://localhost:${api.environment!.HITL_API_PORT}/codec`);
  });
});
