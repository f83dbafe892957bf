/**
 * A real TLS endpoint for Temporal's gRPC, as Temporal Cloud presents one: HTTP/2 over TLS in front of the
 * suite's dev server (which speaks only plaintext). It can require a client certificate (mTLS) and an API key
 * (`authorization: Bearer <key>`, answered like Cloud: gRPC status UNAUTHENTICATED). Certificates are made with
 * the openssl CLI in a temporary directory.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Pem {
  cert: string;
  key: string;
}

/** A CA and certificates it signs, as PEM files in one directory. */
export class TestPki {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'hitl-pki-'));

  /** A self-signed CA named `name`. */
  ca(name: string): Pem & { certPath: string; keyPath: string } {
    const keyPath = path.join(this.dir, `${name}.key`);
    const certPath = path.join(this.dir, `${name}.crt`);
    this.#openssl([
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2',
      '-subj', `/CN=${name}`, '-keyout', keyPath, '-out', certPath,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    ]); // prettier-ignore
    return { certPath, keyPath, cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
  }

  /** A leaf certificate for `name` (also its DNS name), signed by `ca`. */
  leaf(
    ca: { certPath: string; keyPath: string },
    name: string,
    usage: 'serverAuth' | 'clientAuth',
  ): Pem & { certPath: string; keyPath: string } {
    const keyPath = path.join(this.dir, `${name}.key`);
    const csrPath = path.join(this.dir, `${name}.csr`);
    const certPath = path.join(this.dir, `${name}.crt`);
    const extPath = path.join(this.dir, `${name}.ext`);
    writeFileSync(extPath, `subjectAltName=DNS:${name}\nextendedKeyUsage=${usage}\nbasicConstraints=CA:FALSE\n`);
    this.#openssl([
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      keyPath,
      '-out',
      csrPath,
    ]);
    this.#openssl([
      'x509',
      '-req',
      '-in',
      csrPath,
      '-CA',
      ca.certPath,
      '-CAkey',
      ca.keyPath,
      '-CAcreateserial',
      '-days',
      '2',
      '-out',
      certPath,
      '-extfile',
      extPath,
    ]);
    return { certPath, keyPath, cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  #openssl(args: string[]): void {
    execFileSync('openssl', args, { stdio: 'ignore', cwd: this.dir });
  }
}

export interface TlsProxyOptions {
  /** The plaintext gRPC server behind the proxy, host:port. */
  upstream: string;
  server: Pem;
  /** Require a client certificate signed by this CA (PEM). */
  clientCa?: string;
  /** Require `authorization: Bearer <apiKey>`. */
  apiKey?: string;
}

export interface TlsProxy {
  address: string;
  /** Requests refused for a missing or wrong API key. */
  refused: number;
  close(): Promise<void>;
}

/** HTTP/2 pseudo-headers and hop-by-hop headers are the proxy's own, not forwarded. */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host']);
const forwardable = (headers: http2.IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith(':') && !NOT_FORWARDED.has(name)));

export async function startTlsProxy(options: TlsProxyOptions): Promise<TlsProxy> {
  const upstream = http2.connect(`http://${options.upstream}`);
  upstream.on('error', () => {});
  const state = { refused: 0 };
  const server = http2.createSecureServer({
    cert: options.server.cert,
    key: options.server.key,
    allowHTTP1: false,
    ...(options.clientCa && { ca: options.clientCa, requestCert: true, rejectUnauthorized: true }),
  });
  server.on('stream', (stream, headers) => {
    stream.on('error', () => {});
    if (options.apiKey !== undefined && headers.authorization !== `Bearer ${options.apiKey}`) {
      state.refused++;
      // A trailers-only response, as gRPC servers refuse a call: status 16 is UNAUTHENTICATED.
      stream.respond(
        { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '16', 'grpc-message': 'Request unauthorized.' },
        { endStream: true },
      );
      return;
    }
    const out = upstream.request({ ':method': 'POST', ':path': headers[':path'], ...forwardable(headers) }, { waitForTrailers: false });
    out.on('error', () => stream.destroy());
    out.on('response', (responseHeaders) => {
      stream.respond(forwardable(responseHeaders) as http2.OutgoingHttpHeaders, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers(trailers));
    });
    let trailers: http2.OutgoingHttpHeaders = {};
    out.on('trailers', (t) => (trailers = forwardable(t) as http2.OutgoingHttpHeaders));
    stream.pipe(out);
    out.pipe(stream);
    stream.on('close', () => out.close());
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('sessionError', () => {});
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    get refused() {
      return state.refused;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const session of sessions) session.destroy();
      upstream.destroy();
      await closed;
    },
  };
}
