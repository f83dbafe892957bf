/**
 * An agent's response format: a zod schema (agents in code) or a JSON Schema (agents in a file, or in code). The
 * model is sent the JSON Schema either way; the final answer is checked against the same schema.
 */
import { z } from 'zod';
import { checkJsonSchema, schemaFaults } from '../tools/json-schema-check.js';
import type { AgentProblem } from './agent-options-check.js';

export type JsonSchemaObject = Record<string, unknown>;
export type ResponseFormat = z.ZodType | JsonSchemaObject;

export type StructuredCheck = { ok: true; value: unknown } | { ok: false; error: string };

function isZod(format: ResponseFormat): format is z.ZodType {
  return format instanceof z.ZodType;
}

/** What the model is sent as `response_format.json_schema.schema`. */
export function responseJsonSchema(format: ResponseFormat): JsonSchemaObject {
  return isZod(format) ? (z.toJSONSchema(format) as JsonSchemaObject) : format;
}

/**
 * What is wrong with a response format when the agent is defined, each at its place in the schema: a JSON Schema
 * must describe an object, and every part of it must apply (its patterns compile, its `$ref`s resolve), or the
 * first answer that reaches a bad part fails, and the run blames the model. A zod schema is zod's own.
 */
export function responseFormatProblems(format: ResponseFormat | undefined): AgentProblem[] {
  if (format === undefined || isZod(format)) return [];
  if (format.type !== 'object')
    return [{ path: ['responseFormat', 'type'], message: 'a response format is a JSON Schema of `type: object`' }];
  return schemaFaults(format).map((fault) => ({ path: ['responseFormat', ...fault.path], message: fault.message }));
}

/** Checks the model's final answer (its text) against the format. */
export function checkResponse(format: ResponseFormat, content: string | null): StructuredCheck {
  let json: unknown;
  try {
    json = JSON.parse(content ?? '');
  } catch (err) {
    return { ok: false, error: `the reply is not JSON (${(err as Error).message})` };
  }
  if (isZod(format)) {
    const parsed = format.safeParse(json);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: z.prettifyError(parsed.error) };
  }
  const checked = checkJsonSchema(format, json);
  return checked.ok ? { ok: true, value: json } : { ok: false, error: checked.problems.map((p) => `✖ ${p}`).join('\n') };
}
