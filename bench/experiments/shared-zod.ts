/**
 * Bench only: the memory-per-cached-run experiment preloads this beside the production preload, to measure what
 * sharing one zod across runs would save. The worker does not ship it: frozen by the SDK, a shared zod breaks
 * most string formats and z.config(), and its global state would pass from run to run (src/workflow-bundle.ts).
 */
import * as zod from 'zod';

// Built and used once while zod's lazy global state can still be filled in, as the shared instance once was.
zod.z.object({ text: zod.z.string() }).safeParse({ text: 1 });

export const sharedZod = zod;
