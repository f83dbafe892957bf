import { z } from 'zod';
import { builtOnce } from '../../schemas/built-once.js';
import { defineTool } from '../define-tool.js';

export const executeSql = builtOnce('tools/specs/execute-sql.executeSql', () =>
  defineTool({
    name: 'execute_sql',
    description: 'Run one SQL statement against the shop database (tables: orders, refunds).',
    parameters: z.object({ query: z.string().min(1).describe('A single SQLite statement') }),
  }),
);
