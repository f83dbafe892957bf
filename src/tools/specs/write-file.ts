import { z } from 'zod';
import { builtOnce } from '../../schemas/built-once.js';
import { defineTool } from '../define-tool.js';

export const writeFile = builtOnce('tools/specs/write-file.writeFile', () =>
  defineTool({
    name: 'write_file',
    description: 'Write a text file inside the agent workspace (paths are relative to it).',
    parameters: z.object({
      path: z.string().min(1).describe('Relative path inside the workspace, e.g. reports/summary.md'),
      content: z.string(),
    }),
  }),
);
