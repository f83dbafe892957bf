/**
 * Which Temporal to talk to and how: address, namespace, API key, TLS and mTLS, from a profile of Temporal's
 * config file (`TEMPORAL_CONFIG_FILE`, `TEMPORAL_PROFILE`) overridden by the environment, through
 * `@temporalio/envconfig` — the same rules as Temporal's CLI and other SDKs. Every process builds its connection
 * options here: the worker, the API, the CLI, `npm start`, the demo and the bench.
 */
import type { ConnectionOptions, TLSConfig } from '@temporalio/client';
import { loadClientConfigProfile, toClientOptions, type ClientConfigProfile } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';
import type { EnvConfig } from '../config.js';
import { configFilePath, missingNamedFile, missingProfile } from './config-file.js';
import { TemporalConnectionError } from './connection-errors.js';

export const DEFAULT_TEMPORAL_ADDRESS = 'localhost:7233';

/** Long runs have large histories and transcripts; gRPC's 4 MB default is too small to read them back. */
export const LARGE_MESSAGES = { 'grpc.max_receive_message_length': 64 * 1024 * 1024 };

export interface TemporalTarget {
  address: string;
  namespace: string;
  /** The address came from the environment or a profile (`npm start` runs a dev server when it did not). */
  addressConfigured: boolean;
  apiKey?: string;
  /** Undefined: plaintext. */
  tls?: TLSConfig;
  /** gRPC metadata from the profile (`grpc_meta`). */
  metadata?: Record<string, string>;
  /** The profile read from the config file, if any: error messages name it. */
  profile?: string;
}

/** The variables envconfig reads, as validated by the one env schema; plus where it looks for the default file. */
const PASSED_THROUGH = ['HOME', 'XDG_CONFIG_HOME', 'APPDATA'] as const;
const TEMPORAL_VARIABLES = [
  'TEMPORAL_ADDRESS',
  'TEMPORAL_NAMESPACE',
  'TEMPORAL_API_KEY',
  'TEMPORAL_PROFILE',
  'TEMPORAL_CONFIG_FILE',
  'TEMPORAL_TLS',
  'TEMPORAL_TLS_CLIENT_CERT_PATH',
  'TEMPORAL_TLS_CLIENT_CERT_DATA',
  'TEMPORAL_TLS_CLIENT_KEY_PATH',
  'TEMPORAL_TLS_CLIENT_KEY_DATA',
  'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  'TEMPORAL_TLS_SERVER_CA_CERT_DATA',
  'TEMPORAL_TLS_SERVER_NAME',
] as const satisfies readonly (keyof EnvConfig)[];

/** Reads the profile and applies the environment over it. Bad or unreadable settings throw, naming the setting. */
export function resolveTemporalTarget(config: EnvConfig, env: NodeJS.ProcessEnv = process.env): TemporalTarget {
  const vars: Record<string, string> = {};
  for (const name of PASSED_THROUGH) if (env[name]) vars[name] = env[name];
  for (const name of TEMPORAL_VARIABLES) if (config[name] !== undefined) vars[name] = String(config[name]);
  const missing = missingNamedFile(vars);
  if (missing) throw settingError(missing.message, missing.settings);
  let profile: ClientConfigProfile;
  try {
    profile = loadClientConfigProfile({ overrideEnvVars: vars });
  } catch (err) {
    if (vars.TEMPORAL_PROFILE && /^Profile '.*' not found/.test(messageOf(err))) {
      const { message, settings } = missingProfile(vars, vars.TEMPORAL_PROFILE);
      throw settingError(message, settings);
    }
    const { file } = configFilePath(vars);
    throw settingError(`could not read the Temporal config file${file ? ` ${file}` : ''}: ${tomlProblem(err)}`, [
      'TEMPORAL_CONFIG_FILE',
      'TEMPORAL_PROFILE',
    ]);
  }
  const tls = profile.tls;
  if (tls && !tls.disabled && Boolean(tls.clientCert) !== Boolean(tls.clientKey)) {
    const missing = tls.clientCert ? 'TEMPORAL_TLS_CLIENT_KEY_PATH' : 'TEMPORAL_TLS_CLIENT_CERT_PATH';
    throw settingError('mTLS needs both a client certificate and its key; only one is set.', [missing]);
  }
  let options: ReturnType<typeof toClientOptions>;
  try {
    options = toClientOptions(profile);
  } catch (err) {
    throw settingError(`could not read a TLS file: ${messageOf(err)}`, [
      'TEMPORAL_TLS_CLIENT_CERT_PATH',
      'TEMPORAL_TLS_CLIENT_KEY_PATH',
      'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
    ]);
  }
  const { connectionOptions } = options;
  const tlsOption = connectionOptions.tls;
  return {
    address: profile.address ?? DEFAULT_TEMPORAL_ADDRESS,
    namespace: profile.namespace ?? 'default',
    addressConfigured: profile.address !== undefined,
    ...(profile.apiKey && { apiKey: profile.apiKey }),
    ...(tlsOption && { tls: tlsOption === true ? {} : tlsOption }),
    ...(profile.grpcMeta && Object.keys(profile.grpcMeta).length > 0 && { metadata: profile.grpcMeta }),
    ...(vars.TEMPORAL_PROFILE && { profile: vars.TEMPORAL_PROFILE }),
  };
}

/** Options for the worker's connection (`NativeConnection.connect`). */
export function nativeConnectionOptions(target: TemporalTarget): NativeConnectionOptions {
  return {
    address: target.address,
    ...(target.tls && { tls: target.tls }),
    ...(target.apiKey && { apiKey: target.apiKey }),
    ...(target.metadata && { metadata: target.metadata }),
  };
}

/** Options for a client's connection (`Connection.connect`): the CLI, the API, scripts. */
export function clientConnectionOptions(target: TemporalTarget): ConnectionOptions {
  return { ...nativeConnectionOptions(target), channelArgs: LARGE_MESSAGES };
}

/** A dev server the process started itself: plaintext, no key, whatever the profile says. */
export function devServerTarget(address: string, namespace: string): TemporalTarget {
  return { address, namespace, addressConfigured: true };
}

function settingError(message: string, settings: string[]): TemporalConnectionError {
  return new TemporalConnectionError('invalid_settings', `${message} Check ${settings.join(' / ')}.`, settings);
}

/**
 * What is wrong with the config file, and where. The TOML parser's message quotes the lines around the fault, which
 * may hold the API key or a private key: only its first line is kept, with the line and column.
 */
function tomlProblem(err: unknown): string {
  const { line, column } = err as { line?: unknown; column?: unknown };
  if (typeof line !== 'number' || typeof column !== 'number') return messageOf(err).replace(/(?<![.!?])$/, '.');
  return `${messageOf(err).split('\n')[0]} (line ${line}, column ${column}).`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
