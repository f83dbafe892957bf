import { z } from 'zod';
import { builtOnce } from '../../schemas/built-once.js';
import { defineTool } from '../define-tool.js';

/** Reads memories from the store across runs, under the run's `context.userId`. */
export const recall = builtOnce('tools/specs/recall.recall', () =>
  defineTool({
    name: 'recall',
    description: 'Recall what you remembered about the user in earlier conversations: one key, or everything.',
    local: true,
    parameters: z.object({
      key: z
        .string()
        .regex(/^[a-z0-9_]{1,64}$/)
        .optional()
        .describe('The key to read; omit it to read every memory'),
    }),
  }),
);
