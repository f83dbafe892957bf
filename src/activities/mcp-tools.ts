/**
 * The MCP activities: list an agent's MCP tools when a run starts, and call one. Both heartbeat while the server
 * works. A call checks, before anything is sent, that its arguments match the schema the run recorded and that the
 * server still offers the tool under that same schema: otherwise the model is told, and nothing runs. What a server
 * answers comes back as bounded text; an `isError` result, or an error the server answers with, goes back to the
 * model as an error. Only a lost connection or a timeout fails the attempt (the activity's retry policy decides).
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { mcpToolPatterns } from '../agents/define-agent.js';
import { truncateBytes } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import { McpServerError } from '../errors.js';
import type { McpConnections, McpServerRef } from '../mcp/mcp-connections.js';
import { recordListing } from '../mcp/mcp-listing.js';
import { resultText } from '../mcp/mcp-results.js';
import { canonicalSha256 } from '../policy/args-hash.js';
import type { McpListing, McpTool } from '../schemas/mcp-tool.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import { checkJsonSchema } from '../tools/json-schema-check.js';
import type { ActivityDeps } from './activity-deps.js';
import { keepHeartbeating } from './keep-heartbeating.js';
import { wakeRunAfter } from './listings-wake.js';

export interface CallMcpToolInput {
  agent: string;
  toolCallId: string;
  /** The tool as the run recorded it when it started. */
  tool: Pick<McpTool, 'name' | 'server' | 'tool' | 'inputSchema'>;
  args: ToolArgs;
  /**
   * Set when the run holds back its listings while this decided call's tool starts: if the tool still runs after this
   * long, it wakes the run (listings-wake.ts).
   */
  listingsDueInMs?: number;
}

export interface CallMcpToolResult {
  content: string;
  /** The server answered with an error, or the call never ran (and why). */
  problem?: 'tool_error' | 'invalid_arguments' | 'tool_changed' | 'tool_gone';
}

const HEARTBEAT_EVERY_MS = 2000;

export function createMcpActivities({ agents }: Pick<ActivityDeps, 'agents'>, mcp: McpConnections) {
  const serverOf = (agent: string, server: string): McpServerRef | undefined => {
    const config = Object.hasOwn(agents, agent) ? agents[agent]!.mcpServers[server] : undefined;
    return config && { name: server, config };
  };

  return {
    async listMcpTools(input: { agent: string }): Promise<McpListing> {
      const agent = Object.hasOwn(agents, input.agent) ? agents[input.agent] : undefined;
      if (!agent) return { tools: [], skipped: [] };
      const activity = Context.current();
      const stop = keepHeartbeating(activity, HEARTBEAT_EVERY_MS);
      try {
        const servers = [];
        for (const [name, config] of Object.entries(agent.mcpServers)) {
          try {
            servers.push({ name, config, tools: await mcp.listTools({ name, config }, activity.cancellationSignal) });
          } catch (err) {
            throw unavailable(name, err);
          }
        }
        return recordListing(servers, mcpToolPatterns(agent));
      } finally {
        stop();
      }
    },

    async callMcpTool(input: CallMcpToolInput): Promise<CallMcpToolResult> {
      const { tool } = input;
      const server = serverOf(input.agent, tool.server);
      if (!server) {
        return gone(tool.name, `MCP server "${tool.server}" is no longer configured for agent ${input.agent} on this worker`);
      }
      const checked = checkJsonSchema(tool.inputSchema, input.args);
      if (!checked.ok) {
        return { content: `Error: invalid arguments for ${tool.name}:\n${checked.problems.join('\n')}`, problem: 'invalid_arguments' };
      }
      const activity = Context.current();
      const stop = keepHeartbeating(activity, HEARTBEAT_EVERY_MS);
      const stopWake = wakeRunAfter(activity, input.listingsDueInMs);
      try {
        const offered = await mcp.listTools(server, activity.cancellationSignal).catch((err) => {
          throw lostConnection(server, err);
        });
        const current = offered.find((t) => t.name === tool.tool);
        if (!current) return gone(tool.name, `MCP server "${tool.server}" no longer offers ${tool.tool}`);
        if (canonicalSha256(current.inputSchema) !== canonicalSha256(tool.inputSchema)) {
          return {
            content: `Error: ${tool.name} did not run: its server changed the tool's input schema since this run started, so these arguments were checked (and approved) against another schema. Do not call ${tool.name} again in this run.`,
            problem: 'tool_changed',
          };
        }
        const client = await mcp.client(server).catch((err) => {
          throw lostConnection(server, err);
        });
        const remaining = Math.max(1000, activity.info.startToCloseTimeoutMs - 1000);
        const result = await client
          .callTool({ name: tool.tool, arguments: input.args }, undefined, {
            signal: activity.cancellationSignal,
            timeout: remaining,
            onprogress: (progress) => activity.heartbeat(progress),
          })
          .catch((err) => {
            throw answered(err) ? err : lostConnection(server, err);
          });
        const text = resultText(result as Parameters<typeof resultText>[0]);
        if (result.isError)
          return { content: truncateBytes(`Error from ${tool.name}: ${text}`, LIMITS.toolResultBytes), problem: 'tool_error' };
        return { content: text };
      } catch (err) {
        if (err instanceof ApplicationFailure || activity.cancellationSignal.aborted) throw err;
        // The server answered, with an error: the model is told (retrying would get the same answer).
        return { content: truncateBytes(`Error from ${tool.name}: ${errorMessage(err)}`, LIMITS.toolResultBytes), problem: 'tool_error' };
      } finally {
        stop();
        stopWake();
      }
    },
  };

  function lostConnection(server: McpServerRef, err: unknown): ApplicationFailure {
    void mcp.drop(server);
    const failure = err instanceof McpServerError ? err : new McpServerError(server.name, errorMessage(err));
    // Retryable: whether it is retried is the tool's retry policy (only idempotent tools retry).
    return failure.toFailure({ nonRetryable: false });
  }
}

function unavailable(server: string, err: unknown): ApplicationFailure {
  const failure = err instanceof McpServerError ? err : new McpServerError(server, `listing its tools failed: ${errorMessage(err)}`);
  return failure.toFailure({ nonRetryable: false });
}

function gone(name: string, why: string): CallMcpToolResult {
  return { content: `Error: ${name} did not run: ${why}. Do not call it again in this run.`, problem: 'tool_gone' };
}

/** An error the server sent back (as opposed to a lost connection or a timeout). */
function answered(err: unknown): boolean {
  if (err instanceof McpError) return err.code !== ErrorCode.ConnectionClosed && err.code !== ErrorCode.RequestTimeout;
  // A result the SDK could not parse: the server answered garbage, which retrying will not mend.
  return Array.isArray((err as { issues?: unknown } | null)?.issues);
}

function errorMessage(err: unknown): string {
  return truncateBytes(err instanceof Error ? err.message : String(err), 4000);
}
