/**
 * An agent's typed context (LangGraph's `context_schema`): a zod schema for agents in code, a JSON Schema for
 * agents in a file. A run's start input is checked against it before the run starts (the client and the HTTP API)
 * and again when it starts (the worker, whoever started it), and tools, hooks and conditions receive the checked
 * value. The model never sees it.
 */
import { Validator, type OutputUnit, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import { z } from 'zod';

export type JsonSchemaObject = Record<string, unknown>;
export type ContextSchema = z.ZodType | JsonSchemaObject;

export type ContextCheck = { ok: true; value: Record<string, unknown> } | { ok: false; problems: string };

const MAX_PROBLEMS = 10;

function isZod(schema: ContextSchema): schema is z.ZodType {
  return schema instanceof z.ZodType;
}

/** The JSON Schema a run records, and clients show: a zod schema's input form, a JSON Schema as it is. */
export function contextJsonSchema(schema: ContextSchema): JsonSchemaObject {
  if (!isZod(schema)) return schema;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaObject;
}

/** What is wrong with a JSON Schema as a context schema (it must describe an object); empty when it is sound. */
export function contextSchemaProblems(schema: ContextSchema): string[] {
  if (isZod(schema)) return [];
  if (schema.type !== 'object') return ['a context schema is a JSON Schema of `type: object`'];
  try {
    new Validator(schema as Schema, draftOf(schema), false).validate({});
    return [];
  } catch (err) {
    return [`the context schema cannot be applied: ${err instanceof Error ? err.message : String(err)}`];
  }
}

/** Checks a run's context (absent: `{}`) against the agent's schema; the checked value has zod's defaults applied. */
export function checkContext(schema: ContextSchema | undefined, context: Record<string, unknown> | undefined): ContextCheck {
  const value = context ?? {};
  if (!schema) return { ok: true, value };
  if (isZod(schema)) {
    const parsed = schema.safeParse(value);
    if (!parsed.success) return { ok: false, problems: z.prettifyError(parsed.error) };
    const out = parsed.data;
    return typeof out === 'object' && out !== null && !Array.isArray(out)
      ? { ok: true, value: out as Record<string, unknown> }
      : { ok: false, problems: 'the context schema must produce an object' };
  }
  try {
    const result = new Validator(schema as Schema, draftOf(schema), false).validate(value);
    if (result.valid) return { ok: true, value };
    const specific = result.errors.filter((e) => !['properties', 'allOf', '$ref'].includes(e.keyword));
    const lines = (specific.length ? specific : result.errors).slice(0, MAX_PROBLEMS).map(describe);
    return { ok: false, problems: lines.join('\n') };
  } catch (err) {
    return { ok: false, problems: `the context schema cannot be applied: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** The words every side refuses a context with. */
export function contextRefusal(agent: string, problems: string): string {
  return `context does not match agent "${agent}"'s contextSchema:\n${problems}`;
}

/** The draft a schema declares (`$schema`); 2020-12 when it declares none. */
function draftOf(schema: JsonSchemaObject): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-06') || declared.includes('draft-07')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

function describe(unit: OutputUnit): string {
  const at = unit.instanceLocation === '#' ? 'context' : `context${unit.instanceLocation.slice(1).replaceAll('/', '.')}`;
  return `✖ ${unit.error}\n  → at ${at}`.slice(0, 500);
}
