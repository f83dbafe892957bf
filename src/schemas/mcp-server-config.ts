/**
 * How an agent reaches one MCP server: a command the worker starts (stdio) or a URL (streamable HTTP). Values may
 * name environment variables as `${NAME}`: they are read by the worker when it connects, so secrets never reach
 * workflow history. The configuration stays on the worker; a run records only the server's name and its tools.
 */
import { z } from 'zod';
import { Duration } from './duration.js';

const common = {
  /** Start-to-close timeout of one tool call (the activity heartbeats meanwhile). @default '2m' */
  timeout: Duration.optional(),
};

export const McpStdioServer = z.strictObject({
  /** The program to start, e.g. `npx`. */
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  /** Added to a minimal environment (PATH, HOME…), not to the worker's whole environment. */
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
  ...common,
});

export const McpHttpServer = z.strictObject({
  /** The server's streamable-HTTP endpoint, e.g. `http://localhost:3001/mcp`. */
  url: z.string().min(1),
  headers: z.record(z.string(), z.string()).optional(),
  ...common,
});

export const McpServerConfig = z.union([McpStdioServer, McpHttpServer]);

export type McpStdioServer = z.infer<typeof McpStdioServer>;
export type McpHttpServer = z.infer<typeof McpHttpServer>;
export type McpServerConfig = z.infer<typeof McpServerConfig>;
export type McpServerConfigInput = z.input<typeof McpServerConfig>;
