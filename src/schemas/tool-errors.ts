/**
 * What a tool's failure does once its retries are spent (LangGraph's `handle_tool_errors`): a tool's `onError`, or
 * an agent's override per tool. Data, so an agent's choice is recorded with the run when it starts.
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';

const ModelMessage = builtOnce('schemas/tool-errors.ModelMessage', () => z.string().min(1).max(4000));

/** `return`: the model reads the error. `fail`: the run fails. `{message}`: the model reads this text instead. */
export const ToolErrorAction = builtOnce('schemas/tool-errors.ToolErrorAction', () =>
  z.union([z.enum(['return', 'fail']), z.strictObject({ message: ModelMessage })]),
);

export const OnToolError = builtOnce('schemas/tool-errors.OnToolError', () =>
  z.union([
    ToolErrorAction,
    z.strictObject({
      /**
       * Error codes or names to the text the model reads: a code (`err.code`, e.g. `ECONNREFUSED`, `tool_refused`) is
       * looked up first, then the name (`err.name`, e.g. `TypeError`, `Timeout`, `NonError` for a thrown non-Error).
       */
      errors: z.record(z.string().min(1).max(200), ModelMessage).refine((map) => Object.keys(map).length > 0, 'name at least one error'),
      /** For errors the map does not name. @default 'return' */
      fallback: ToolErrorAction.optional(),
    }),
  ]),
);

/** How a tool failure is named, for the `errors` map. */
export interface ToolErrorIdentity {
  name: string;
  code?: string;
}

/** The name of a thrown value that is not an Error (a string, an object, null). */
export const NON_ERROR_NAME = 'NonError';
/** The name of an attempt that ran past its timeout. */
export const TIMEOUT_NAME = 'Timeout';

export type ToolErrorAction = z.infer<typeof ToolErrorAction>;
export type OnToolError = z.infer<typeof OnToolError>;
