/**
 * Turns a failed connection into an error that says which setting to fix. The SDK's own errors differ by side
 * (the worker's Rust core names the TLS problem; the client's gRPC library often says only "Failed to connect
 * before the deadline"), so after a failure both ask the same questions themselves: did the server refuse the
 * credentials (gRPC status), can its port be reached at all, and what does a TLS handshake with the same settings
 * say (Node's TLS error codes are precise: untrusted issuer, wrong name, client certificate required or refused).
 */
import net from 'node:net';
import tls from 'node:tls';
import { TemporalConnectionError, type ConnectionFailure } from './connection-errors.js';
import { GRPC_STATUS } from './grpc-status.js';
import type { TemporalTarget } from './temporal-target.js';

/** How long each probe may take; a diagnosis runs only after a failure. */
const PROBE_TIMEOUT_MS = 5000;

/** Each setting as the environment and the config file's profile spell it. */
const SETTINGS = {
  address: 'TEMPORAL_ADDRESS (profile: address)',
  namespace: 'TEMPORAL_NAMESPACE (profile: namespace)',
  apiKey: 'TEMPORAL_API_KEY (profile: api_key)',
  tls: 'TEMPORAL_TLS (profile: tls.disabled)',
  serverCa: 'TEMPORAL_TLS_SERVER_CA_CERT_PATH or _DATA (profile: tls.server_ca_cert_path)',
  serverName: 'TEMPORAL_TLS_SERVER_NAME (profile: tls.server_name)',
  clientCert: 'TEMPORAL_TLS_CLIENT_CERT_PATH or _DATA (profile: tls.client_cert_path)',
  clientKey: 'TEMPORAL_TLS_CLIENT_KEY_PATH or _DATA (profile: tls.client_key_path)',
} as const;

type Verdict = { reason: ConnectionFailure; message: string; settings: string[] };

/** Why a connection attempt failed, from its error and, failing that, from probes of our own. */
export async function diagnoseConnectionFailure(target: TemporalTarget, err: unknown): Promise<TemporalConnectionError> {
  const verdict = credentialsVerdict(target, err) ?? (await transportVerdict(target)) ?? unknownVerdict(target, err);
  return toError(target, verdict, err);
}

/**
 * What a TCP connect and a TLS handshake say while an attempt is still pending: the client's gRPC library keeps
 * retrying a refused handshake until its deadline, which this cuts short. Undefined when both went through.
 */
export async function diagnoseTransport(target: TemporalTarget, signal?: AbortSignal): Promise<TemporalConnectionError | undefined> {
  const verdict = await transportVerdict(target, signal);
  return verdict && toError(target, verdict);
}

function toError(target: TemporalTarget, verdict: Verdict, cause?: unknown): TemporalConnectionError {
  const where = target.profile ? ` (profile "${target.profile}")` : '';
  const message = `Temporal at ${target.address}${where}: ${verdict.message}`;
  return new TemporalConnectionError(verdict.reason, message, verdict.settings, { ...(cause !== undefined && { cause }) });
}

/** The server answered, and has no namespace of that name (the SDK says "5 NOT_FOUND: Namespace nope is not found."). */
export function namespaceNotFound(target: TemporalTarget, cause: unknown): TemporalConnectionError {
  const verdict: Verdict = {
    reason: 'namespace_not_found',
    message: `namespace "${target.namespace}" does not exist. Set ${SETTINGS.namespace} to one that does (\`temporal operator namespace list\` lists them).`,
    settings: [SETTINGS.namespace],
  };
  return toError(target, verdict, cause);
}

/** The server answered, and refused who we are. */
function credentialsVerdict(target: TemporalTarget, err: unknown): Verdict | undefined {
  const codes = grpcCodes(err);
  const text = errorText(err);
  if (codes.has(GRPC_STATUS.UNAUTHENTICATED) || /valid authentication credentials|UNAUTHENTICATED/i.test(text)) {
    return target.apiKey
      ? {
          reason: 'unauthenticated',
          message: `the server refused the API key. Set ${SETTINGS.apiKey} to a valid key.`,
          settings: [SETTINGS.apiKey],
        }
      : {
          reason: 'unauthenticated',
          message: `the server requires credentials. Set ${SETTINGS.apiKey}, or a client certificate: ${SETTINGS.clientCert} and ${SETTINGS.clientKey}.`,
          settings: [SETTINGS.apiKey, SETTINGS.clientCert, SETTINGS.clientKey],
        };
  }
  if (codes.has(GRPC_STATUS.PERMISSION_DENIED) || /PERMISSION_DENIED|permission denied/i.test(text)) {
    return {
      reason: 'permission_denied',
      message: `these credentials may not use namespace "${target.namespace}". Check ${SETTINGS.namespace}, and the namespace's permissions for the API key or certificate.`,
      settings: [SETTINGS.namespace, target.apiKey ? SETTINGS.apiKey : SETTINGS.clientCert],
    };
  }
  return undefined;
}

/** Connects to the port, then shakes hands over TLS as the SDK would. */
async function transportVerdict(target: TemporalTarget, signal?: AbortSignal): Promise<Verdict | undefined> {
  const { host, port } = hostAndPort(target.address);
  const reachable = await tcpProbe(host, port, signal);
  if (signal?.aborted) return undefined;
  if (reachable !== true) {
    return {
      reason: 'unreachable',
      message: `cannot reach ${host}:${port} (${reachable}). Check ${SETTINGS.address} and that the server is up.`,
      settings: [SETTINGS.address],
    };
  }
  if (!target.tls) {
    const { handshake } = await tlsProbe(host, port, { rejectUnauthorized: false, servername: serverName(host), signal });
    return handshake
      ? {
          reason: 'tls_required',
          message: `the server expects TLS. Set ${SETTINGS.tls} to true (or an API key or client certificate, which turn it on).`,
          settings: [SETTINGS.tls],
        }
      : undefined;
  }
  const { serverRootCACertificate: ca, clientCertPair: pair, serverNameOverride } = target.tls;
  const { error: failure } = await tlsProbe(host, port, {
    servername: serverNameOverride ?? serverName(host),
    ...(ca && { ca: Buffer.from(ca) }),
    ...(pair && { cert: Buffer.from(pair.crt), key: Buffer.from(pair.key) }),
    signal,
  });
  if (signal?.aborted) return undefined;
  return failure === undefined ? undefined : tlsVerdict(failure, Boolean(pair));
}

function tlsVerdict(err: TlsError, hasClientCert: boolean): Verdict {
  const code = err.code ?? '';
  if (
    /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_UNTRUSTED|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID)$/.test(
      code,
    )
  ) {
    return {
      reason: 'server_not_trusted',
      message: `the server's TLS certificate is not trusted (${code}). Set ${SETTINGS.serverCa} to the CA that signed it.`,
      settings: [SETTINGS.serverCa],
    };
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return {
      reason: 'server_name_mismatch',
      message: `the server's TLS certificate is for another name (${err.reason ?? err.message}). Set ${SETTINGS.serverName} to a name it carries, or fix ${SETTINGS.address}.`,
      settings: [SETTINGS.serverName, SETTINGS.address],
    };
  }
  if (/WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|UNKNOWN_PROTOCOL/.test(code)) {
    return {
      reason: 'tls_not_offered',
      message: `the server does not speak TLS. Set ${SETTINGS.tls} to false (and unset the API key and certificates), or fix ${SETTINGS.address}.`,
      settings: [SETTINGS.tls, SETTINGS.address],
    };
  }
  if (!hasClientCert && (/CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE/.test(code) || err.code === 'ECONNRESET')) {
    return {
      reason: 'client_certificate_required',
      message: `the server requires a client certificate (mTLS). Set ${SETTINGS.clientCert} and ${SETTINGS.clientKey}.`,
      settings: [SETTINGS.clientCert, SETTINGS.clientKey],
    };
  }
  // A server refuses a certificate with an alert (Temporal's frontend) or by closing the connection (Node's TLS).
  if (
    hasClientCert &&
    (/ALERT_(UNKNOWN_CA|BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|ACCESS_DENIED|DECRYPT_ERROR|HANDSHAKE_FAILURE)/.test(code) ||
      code === 'ECONNRESET')
  ) {
    return {
      reason: 'client_certificate_refused',
      message: `the server refused the client certificate (${code}). Set ${SETTINGS.clientCert} and ${SETTINGS.clientKey} to a pair signed by a CA the server (or namespace) trusts.`,
      settings: [SETTINGS.clientCert, SETTINGS.clientKey],
    };
  }
  return {
    reason: 'unknown',
    message: `TLS failed (${code || err.message}). Check ${SETTINGS.serverCa}, ${SETTINGS.clientCert}.`,
    settings: [SETTINGS.serverCa, SETTINGS.clientCert],
  };
}

function unknownVerdict(target: TemporalTarget, err: unknown): Verdict {
  const settings = [SETTINGS.address, SETTINGS.namespace, ...(target.tls ? [SETTINGS.serverCa, SETTINGS.clientCert] : [SETTINGS.tls])];
  return { reason: 'unknown', message: `could not connect: ${errorText(err)}. Check ${settings.join(', ')}.`, settings };
}

function tcpProbe(host: string, port: number, signal?: AbortSignal): Promise<true | string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: PROBE_TIMEOUT_MS, signal });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(`no answer within ${PROBE_TIMEOUT_MS / 1000}s`);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

type TlsError = NodeJS.ErrnoException & { reason?: string };

/**
 * A TLS handshake with these settings, then the HTTP/2 preface: under TLS 1.3 the server checks the client's
 * certificate after the client thinks the handshake is done, so its refusal arrives on the first read, as an alert
 * or as the connection closing. `handshake`: the server speaks TLS; `error`: what went wrong, if anything.
 */
function tlsProbe(
  host: string,
  port: number,
  { signal, ...options }: tls.ConnectionOptions & { signal?: AbortSignal | undefined },
): Promise<{ handshake: boolean; error?: TlsError }> {
  return new Promise((resolve) => {
    let handshake = false;
    const socket = tls.connect({ host, port, ALPNProtocols: ['h2'], timeout: PROBE_TIMEOUT_MS, ...options });
    signal?.addEventListener('abort', () => socket.destroy(), { once: true });
    const done = (error?: TlsError) => {
      socket.destroy();
      resolve({ handshake, ...(error && { error }) });
    };
    socket.once('secureConnect', () => {
      handshake = true;
      socket.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00');
      socket.once('data', () => done());
      setTimeout(() => done(), 1000).unref();
    });
    socket.once('timeout', () => done(Object.assign(new Error('TLS handshake timed out'), { code: 'ETIMEDOUT' })));
    socket.once('error', (err) => done(err));
    socket.once('close', () => done(Object.assign(new Error('the server closed the connection'), { code: 'ECONNRESET' })));
  });
}

function hostAndPort(address: string): { host: string; port: number } {
  const url = new URL(`http://${address}`);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 7233) };
}

/** SNI takes host names only. */
function serverName(host: string): string | undefined {
  return net.isIP(host) ? undefined : host;
}

/** The gRPC status codes on `err` and the errors it wraps (the SDKs wrap a ServiceError around the call's error). */
export function grpcCodes(err: unknown): Set<number> {
  const codes = new Set<number>();
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'number') codes.add(e.code);
  }
  return codes;
}

function errorText(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as { message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    parts.push(String(e.message ?? e));
  }
  return parts.join(': ');
}
