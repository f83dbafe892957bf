/** `/api/tools`: every registered tool with the JSON Schema of its arguments, so clients can check an edit before sending it. */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { BREAKPOINT_EDITS, breakpointToolName, type BreakpointKind } from '../schemas/agent-options.js';
import { toFunctionDefinition } from '../tools/define-tool.js';
import { toolSpecs } from '../tools/registry.js';
import type { ApiApp } from './api-env.js';
import { ErrorBody, ToolView } from './http-schemas.js';

type ToolView = z.infer<typeof ToolView>;

const json = <T extends z.ZodType>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });

export function toolRoutes(app: ApiApp): void {
  // The same derivation the model activity uses, so the page validates against exactly what the workflow enforces.
  const tools: ToolView[] = Object.values(toolSpecs).map((spec) => {
    const { name, description, parameters } = toFunctionDefinition(spec).function;
    return { name, description, parameters };
  });
  // Breakpoints wait like calls (`breakpoint:<where>`); their edits are checked against these.
  for (const [kind, schema] of Object.entries(BREAKPOINT_EDITS)) {
    const { $schema: _ignored, ...parameters } = z.toJSONSchema(schema) as Record<string, unknown>;
    tools.push({
      name: breakpointToolName(kind as BreakpointKind),
      description: `A breakpoint (${kind}): edit what it shows.`,
      parameters,
    });
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tools',
      summary: 'Every tool: name, description and the JSON Schema of its arguments',
      responses: { 200: json(z.array(ToolView), 'The registered tools'), 401: json(ErrorBody, 'Missing or unknown token') },
    }),
    (c) => c.json(tools, 200),
  );
}
