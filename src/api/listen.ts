import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves a Hono app on Node and resolves once it accepts connections; port 0 picks a free one. */
export function listen(app: Hono<any>, options: { port?: number; hostname?: string } = {}): Promise<Listening> {
  const hostname = options.hostname ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port ?? 0, hostname }, (info: AddressInfo) => {
      // A URL this machine can open: all interfaces include loopback; an IPv6 address goes in brackets.
      const host = hostname === '0.0.0.0' ? '127.0.0.1' : hostname === '::' ? '::1' : hostname;
      resolve({
        url: `http://${host.includes(':') ? `[${host}]` : host}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
    server.once('error', reject);
  });
}
