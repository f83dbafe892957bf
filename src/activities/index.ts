/** All activities, built over the worker's registries and configuration. */
import type { ActivityDeps } from './activity-deps.js';
import { createCallModel } from './call-model.js';
import { McpConnections } from '../mcp/mcp-connections.js';
import { createExecuteTool } from './execute-tool.js';
import { createMcpActivities } from './mcp-tools.js';
import { createNotify } from './notify.js';
import { createResolveAgent } from './resolve-agent.js';
import { createReviewCall } from './review-call.js';

export type { ActivityDeps } from './activity-deps.js';

export function createActivities(deps: ActivityDeps) {
  return {
    ...createResolveAgent(deps),
    ...createCallModel(deps),
    ...createExecuteTool(deps),
    ...createNotify(deps),
    ...createMcpActivities(deps, deps.mcp ?? new McpConnections()),
    ...createReviewCall(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
