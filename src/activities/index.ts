/** All activities, built over the worker's registries and configuration. */
import type { ActivityDeps } from './activity-deps.js';
import { createCallModel } from './call-model.js';
import { createConfirmHandover } from './confirm-handover.js';
import { createConfirmReport } from './confirm-report.js';
import { McpConnections } from '../mcp/mcp-connections.js';
import { createExecuteTool } from './execute-tool.js';
import { createRunModelHook } from './model-hook.js';
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
    ...createRunModelHook(deps),
    ...createMcpActivities(deps, deps.mcp ?? new McpConnections()),
    ...createReviewCall(deps),
    ...createConfirmReport(),
    ...createConfirmHandover(),
  };
}

export type Activities = ReturnType<typeof createActivities>;
