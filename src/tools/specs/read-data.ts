import { z } from 'zod';
import { builtOnce } from '../../schemas/built-once.js';
import { defineTool } from '../define-tool.js';

export const SHOP_TABLES = ['orders', 'refunds'] as const;

export const readData = builtOnce('tools/specs/read-data.readData', () =>
  defineTool({
    name: 'read_data',
    description: 'Read rows from a shop table, optionally filtered by exact column values.',
    // One indexed SQLite read: quick and side-effect free, so it skips the server round trip of a regular activity.
    local: true,
    parameters: z.object({
      table: z.enum(SHOP_TABLES).describe('Table to read'),
      where: z
        .record(z.string().regex(/^[a-z_]+$/), z.union([z.string(), z.number()]))
        .optional()
        .describe('Column equality filters, e.g. {"status": "open"}'),
    }),
  }),
);
