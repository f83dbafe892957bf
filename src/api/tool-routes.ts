/**
 * `/api/tools`: every tool of ours with the JSON Schema of its arguments, so clients can check an edit before
 * sending it; with `?run=<workflow id>`, that run's tools, MCP tools included, as the run recorded them when it
 * started (what its edits are checked against). `/api/agents`: the agents the workers serve.
 */
import { createRoute } from '@hono/zod-openapi';
import { QueryNotRegisteredError, WorkflowNotFoundError } from '@temporalio/client';
import { movableRun } from '../client/followed-run.js';
import { z } from 'zod';
import { BREAKPOINT_EDITS, breakpointToolName, type BreakpointKind } from '../schemas/agent-options.js';
import { agentViews } from '../agents/agent-views.js';
import { RunNotFoundError } from '../errors.js';
import { toolsQuery } from '../contract/messages.js';
import { AgentView } from '../schemas/agent-view.js';
import { toFunctionDefinition } from '../tools/define-tool.js';
import { toolSpecs } from '../tools/registry.js';
import type { ApiApp, ApiOptions } from './api-env.js';
import { ErrorBody, NoQuery, ToolView } from './http-schemas.js';

type ToolView = z.infer<typeof ToolView>;

const json = <T extends z.ZodType>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });

const ToolsQuery = z.strictObject({ run: z.string().min(1).max(2000).optional() });

export function toolRoutes(app: ApiApp, options: Pick<ApiOptions, 'hitl' | 'agents'>): void {
  // The same derivation the model activity uses, so the page validates against exactly what the workflow enforces.
  const ours = new Map<string, ToolView>(
    Object.values(toolSpecs).map((spec) => {
      const { name, description, parameters } = toFunctionDefinition(spec).function;
      return [name, { name, description, parameters }];
    }),
  );

  // Breakpoints wait like calls (`breakpoint:<where>`); their edits are checked against these.
  const breakpoints: ToolView[] = Object.entries(BREAKPOINT_EDITS).map(([kind, schema]) => {
    const { $schema: _ignored, ...parameters } = z.toJSONSchema(schema) as Record<string, unknown>;
    return { name: breakpointToolName(kind as BreakpointKind), description: `A breakpoint (${kind}): edit what it shows.`, parameters };
  });

  const runTools = async (workflowId: string): Promise<ToolView[]> => {
    // Another workflow would answer with ours (it has no such query either), and a stuck run's query fails untyped.
    await movableRun(options.hitl.temporal, workflowId, 'its tools cannot be read from it now', options.hitl.health);
    const recorded = await options.hitl.temporal.workflow
      .getHandle(workflowId)
      .query(toolsQuery)
      .catch((err: unknown) => {
        if (err instanceof WorkflowNotFoundError) throw new RunNotFoundError(workflowId);
        // A run of code from before this query has no MCP tools: ours are its tools' schemas.
        if (err instanceof QueryNotRegisteredError) return { tools: [...ours.keys()], mcpTools: [], mcpSkipped: [] };
        throw err;
      });
    const mcp = new Map(recorded.mcpTools.map((tool) => [tool.name, tool]));
    return recorded.tools.flatMap((name): ToolView[] => {
      const tool = mcp.get(name);
      if (tool)
        return [
          { name, description: tool.description, parameters: tool.inputSchema, ...(tool.annotations && { annotations: tool.annotations }) },
        ];
      const spec = ours.get(name);
      return spec ? [spec] : [];
    });
  };

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tools',
      summary: 'Tools with the JSON Schema of their arguments: ours, or one run’s (MCP tools included) with `?run=`',
      request: { query: ToolsQuery },
      responses: {
        200: json(z.array(ToolView), 'The tools'),
        400: json(ErrorBody, 'A query other than `run`, or `run` given twice'),
        401: json(ErrorBody, 'Missing or unknown token'),
        404: json(ErrorBody, 'No such run, or not an agent run'),
        409: json(ErrorBody, 'The run is stuck (run_stuck): its tools cannot be read from it now'),
      },
    }),
    async (c) => {
      const { run } = c.req.valid('query');
      return c.json([...(run ? await runTools(run) : ours.values()), ...breakpoints], 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/agents',
      summary: 'The agents the workers serve: in code and in the agents file (HITL_AGENTS_FILE)',
      request: { query: NoQuery },
      responses: {
        200: json(z.array(AgentView), 'The agents'),
        400: json(ErrorBody, 'A query string, which this route does not take'),
        401: json(ErrorBody, 'Missing or unknown token'),
      },
    }),
    (c) => c.json(options.agents ? agentViews(options.agents) : [], 200),
  );
}
