/**
 * `${NAME}` in an MCP server's configuration stands for the environment variable NAME, read when the worker
 * connects (so a secret is never written into an agents file, nor into history). Nothing else is special: a `$`
 * that does not start `${NAME}` is itself.
 */
import type { McpHttpServer, McpServerConfig } from '../schemas/mcp-server-config.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Every variable a configuration names, with where (`headers.Authorization`), for checks at startup. */
export function envReferences(config: McpServerConfig): { name: string; path: (string | number)[] }[] {
  const found: { name: string; path: (string | number)[] }[] = [];
  const visit = (value: unknown, path: (string | number)[]) => {
    if (typeof value === 'string') for (const match of value.matchAll(REFERENCE)) found.push({ name: match[1]!, path });
    else if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i]));
    else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) visit(item, [...path, key]);
  };
  visit(config, []);
  return found;
}

/** The configuration with every reference replaced by its variable's value; throws naming what is unset. */
export function expandEnv<T extends McpServerConfig>(config: T, env: NodeJS.ProcessEnv = process.env): T {
  const missing = envReferences(config).filter(({ name }) => env[name] === undefined);
  if (missing.length) {
    throw new Error(`environment variable(s) not set: ${[...new Set(missing.map((m) => m.name))].join(', ')}`);
  }
  const expand = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(REFERENCE, (_, name: string) => env[name]!);
    if (Array.isArray(value)) return value.map(expand);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
    return value;
  };
  return expand(config) as T;
}

/** Whether the configuration is a URL (streamable HTTP) rather than a command (stdio). */
export function isHttpServer(config: McpServerConfig): config is McpHttpServer {
  return 'url' in config;
}
