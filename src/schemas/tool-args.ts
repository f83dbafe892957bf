import { z } from 'zod';
import { builtOnce } from './built-once.js';

/** Tool arguments: a JSON object, as function calling produces them. */
export const ToolArgs = builtOnce('schemas/tool-args.ToolArgs', () => z.record(z.string(), z.unknown()));
export type ToolArgs = z.infer<typeof ToolArgs>;
