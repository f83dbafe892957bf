import { z } from 'zod';

/** Tool arguments: a JSON object, as function calling produces them. */
export const ToolArgs = z.record(z.string(), z.unknown());
export type ToolArgs = z.infer<typeof ToolArgs>;
