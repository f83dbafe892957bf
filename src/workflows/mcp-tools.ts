/**
 * MCP tools in the run: listed once when it starts (an activity whose result history keeps, with the snapshot
 * across continue-as-new), so a paused run keeps the tools, schemas and annotations it started with whatever the
 * servers offer later; called as activities. What an activity returns is read defensively: a listing that does not
 * parse fails the run with a typed error, a call's odd result reaches the model as an error; neither fails a task.
 */
import { z } from 'zod';
import { McpServerError } from '../errors.js';
import type { AgentSnapshot } from '../schemas/agent-snapshot.js';
import { McpListing, type McpTool } from '../schemas/mcp-tool.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import { ACTIVITY_OPTIONS, activities, mcpToolOptions } from './activity-options.js';
import { summaryText } from './summary-text.js';

/**
 * The snapshot with the agent's MCP tools added, for agents that declare MCP servers. No patch guards this
 * new activity: which branch a run takes is decided by the snapshot it recorded before (`mcpServers`), which runs
 * recorded before MCP support never hold, so no recorded history can reach it.
 */
export async function withMcpTools(snapshot: AgentSnapshot): Promise<AgentSnapshot> {
  if (!snapshot.mcpServers?.length) return snapshot;
  const raw = await activities.listMcpTools.executeWithOptions(
    { ...ACTIVITY_OPTIONS.listMcpTools, summary: summaryText(`list MCP tools (${snapshot.mcpServers.join(', ')})`) },
    [{ agent: snapshot.name }],
  );
  const listing = McpListing.safeParse(raw);
  if (!listing.success) {
    throw new McpServerError(snapshot.mcpServers.join(', '), `its tool listing could not be read:\n${z.prettifyError(listing.error)}`);
  }
  const added = listing.data.tools.map((tool) => tool.name).filter((name) => !snapshot.tools.includes(name));
  return { ...snapshot, tools: [...snapshot.tools, ...added], mcpTools: listing.data.tools, mcpSkipped: listing.data.skipped };
}

/** The MCP tool of this name the run recorded, if the agent has it. */
export function mcpToolOf(snapshot: AgentSnapshot, name: string): McpTool | undefined {
  return snapshot.tools.includes(name) ? snapshot.mcpTools?.find((tool) => tool.name === name) : undefined;
}

/** Calls the tool; the text the model reads. A failed activity is the caller's to report (like any tool's). */
export async function callMcpTool(
  agent: string,
  callId: string,
  tool: McpTool,
  args: ToolArgs,
  listingsDueInMs: number | undefined,
): Promise<string> {
  const recorded = { name: tool.name, server: tool.server, tool: tool.tool, inputSchema: tool.inputSchema };
  const result = await activities.callMcpTool.executeWithOptions({ ...mcpToolOptions(tool), summary: `MCP ${tool.name}` }, [
    { agent, toolCallId: callId, tool: recorded, args, ...(listingsDueInMs !== undefined && { listingsDueInMs }) },
  ]);
  return typeof result?.content === 'string' ? result.content : `Error: ${tool.name} returned no readable result.`;
}
