import { z } from 'zod';
import { builtOnce } from '../../schemas/built-once.js';
import { defineTool } from '../define-tool.js';

/** Writes a memory to the store across runs, under the run's `context.userId` (LangGraph's long-term memory). */
export const remember = builtOnce('tools/specs/remember.remember', () =>
  defineTool({
    name: 'remember',
    description: 'Remember a fact about the user for later conversations, under a short key (e.g. "favorite_drink").',
    parameters: z.object({
      key: z
        .string()
        .regex(/^[a-z0-9_]{1,64}$/)
        .describe('A short key: lower-case letters, digits, underscores'),
      fact: z.string().min(1).max(2000).describe('What to remember'),
    }),
  }),
);
