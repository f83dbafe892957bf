/**
 * One MCP client connection per server per worker process, shared by every run and activity on the worker. A
 * connection that closes or fails is dropped, and the next use connects again; connecting is retried a few times
 * on the spot (nothing was sent yet, so that is safe for any tool).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListToolsResultSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { McpServerError } from '../errors.js';
import type { McpServerConfig } from '../schemas/mcp-server-config.js';
import { expandEnv, isHttpServer } from './env-references.js';

/** How long connecting (and the MCP handshake) may take before it counts as a failed attempt. */
const CONNECT_TIMEOUT_MS = 60_000;
const CONNECT_ATTEMPTS = 3;
/** Of a stdio server's standard error, the end is kept for error messages. */
const STDERR_TAIL_CHARS = 2000;
/** Listing stops after this many pages or tools (a server that pages forever must not hold an activity). */
const MAX_PAGES = 20;
const MAX_LISTED = 2000;

const CLIENT_INFO = { name: 'temporal-hitl-agent', version: '0.1.0' };

/** A server's name and configuration: the pool keys connections by both, so a changed configuration reconnects. */
export interface McpServerRef {
  name: string;
  config: McpServerConfig;
}

export class McpConnections {
  readonly #clients = new Map<string, Promise<Client>>();
  readonly #env: NodeJS.ProcessEnv;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.#env = env;
  }

  /** The server's pooled client; connects (again) when there is none. Throws McpServerError. */
  client(server: McpServerRef): Promise<Client> {
    const key = keyOf(server);
    let client = this.#clients.get(key);
    if (!client) {
      client = this.#connectWithRetries(server);
      this.#clients.set(key, client);
      // A failed connection is forgotten at once, so the next use tries again.
      client.then(
        (c) => {
          c.onclose = () => this.#forget(key, client!);
        },
        () => this.#forget(key, client!),
      );
    }
    return client;
  }

  /** Forgets a connection that misbehaved (closed, timed out, answered garbage) and closes it. */
  async drop(server: McpServerRef): Promise<void> {
    const key = keyOf(server);
    const client = this.#clients.get(key);
    this.#clients.delete(key);
    await client?.then((c) => c.close()).catch(() => {});
  }

  /** Every tool the server offers, all pages. */
  async listTools(server: McpServerRef, signal?: AbortSignal): Promise<Tool[]> {
    const client = await this.client(server);
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES && tools.length < MAX_LISTED; page++) {
      // A plain request rather than client.listTools(), which compiles a validator for every output schema each
      // time (≈200 ms for the filesystem server's 14 tools, against under 1 ms for a call): the activity lists before
      // every call. Results are read as the model reads them, whatever an output schema says.
      const result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, ListToolsResultSchema, {
        signal,
      });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return tools.slice(0, MAX_LISTED);
  }

  async close(): Promise<void> {
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(clients.map((c) => c.then((client) => client.close()).catch(() => {})));
  }

  #forget(key: string, client: Promise<Client>): void {
    if (this.#clients.get(key) === client) this.#clients.delete(key);
  }

  async #connectWithRetries(server: McpServerRef): Promise<Client> {
    let last: unknown;
    for (let attempt = 1; attempt <= CONNECT_ATTEMPTS; attempt++) {
      try {
        return await this.#connect(server);
      } catch (err) {
        last = err;
        if (attempt < CONNECT_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    }
    throw new McpServerError(
      server.name,
      `could not connect (${CONNECT_ATTEMPTS} attempts): ${last instanceof Error ? last.message : String(last)}`,
    );
  }

  async #connect(server: McpServerRef): Promise<Client> {
    const config = expandEnv(server.config, this.#env);
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    if (isHttpServer(config)) {
      const transport = new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { ...(config.headers && { headers: config.headers }) },
      });
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
      return client;
    }
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      ...(config.env && { env: config.env }),
      ...(config.cwd && { cwd: config.cwd }),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (err) {
      await client.close().catch(() => {});
      const said = stderr.trim() ? ` (its standard error ends: ${stderr.trim()})` : '';
      throw new Error(`${err instanceof Error ? err.message : String(err)}${said}`);
    }
    return client;
  }
}

function keyOf(server: McpServerRef): string {
  return `${server.name}\n${JSON.stringify(server.config)}`;
}
