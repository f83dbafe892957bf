/**
 * An agent's typed context (LangGraph's `context_schema`): a zod schema for agents in code, a JSON Schema for
 * agents in a file. A run's start input is checked against it before the run starts (the client and the HTTP API)
 * and again when it starts (the worker, whoever started it), and tools, hooks and conditions receive the checked
 * value. The model never sees it.
 */
import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { z } from 'zod';
import { draftOf, schemaFaults, type SchemaFault } from '../tools/json-schema-check.js';
import { withBoundedWork } from '../tools/schema-patterns.js';

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

/**
 * What is wrong with a JSON Schema as a context schema, each at its place in it (empty when it is sound): it must
 * describe an object, and every part must apply (its patterns compile, its `$ref`s resolve), or a start whose
 * context reaches a bad part is refused for the schema's fault.
 */
export function contextSchemaProblems(schema: ContextSchema): SchemaFault[] {
  if (isZod(schema)) return [];
  if (schema.type !== 'object') return [{ path: [], message: 'a context schema is a JSON Schema of `type: object`' }];
  return schemaFaults(schema);
}

/**
 * Checks a run's context (absent: `{}`) against the agent's schema; the checked value has the schema's defaults
 * applied: zod's, or a JSON Schema's `default`s of absent properties (withDefaults).
 */
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
    const defaulted = withDefaults(schema, value) as Record<string, unknown>;
    // As MCP arguments are checked (json-schema-check.ts, `bounded`): the context is the caller's, hostile until checked.
    const result = withBoundedWork(schema, defaulted, (read, measured) =>
      new Validator(read as Schema, draftOf(schema), true).validate(measured),
    );
    if (result.valid) return { ok: true, value: defaulted };
    const specific = result.errors.filter((e) => !['properties', 'allOf', '$ref'].includes(e.keyword));
    const lines = (specific.length ? specific : result.errors).slice(0, MAX_PROBLEMS).map(describe);
    return { ok: false, problems: lines.join('\n') };
  } catch (err) {
    return { ok: false, problems: `the context schema cannot be applied: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/**
 * The value with the `default` of every property its schema lists and it lacks, at every depth of `properties`, as
 * Ajv's `useDefaults` fills them (then checked like any value): a policy condition or a tool that reads such a
 * property sees the default, as with a zod schema's `.default()`. Defaults under `allOf`, `$ref` or a combinator
 * are not applied; a schema that needs one there states the property instead.
 */
export function withDefaults(schema: unknown, value: unknown): unknown {
  if (!isObject(schema) || !isObject(value) || !isObject(schema.properties)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [key, property] of Object.entries(schema.properties)) {
    if (!isObject(property)) continue;
    const present = Object.hasOwn(out, key);
    if (!present && !Object.hasOwn(property, 'default')) continue;
    // defineProperty: a property named __proto__ is a key like any other, never the object's prototype.
    const next = withDefaults(property, present ? out[key] : structuredClone(property.default));
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The words every side refuses a context with. */
export function contextRefusal(agent: string, problems: string): string {
  return `context does not match agent "${agent}"'s contextSchema:\n${problems}`;
}

function describe(unit: OutputUnit): string {
  const at = unit.instanceLocation === '#' ? 'context' : `context${unit.instanceLocation.slice(1).replaceAll('/', '.')}`;
  return `✖ ${unit.error}\n  → at ${at}`.slice(0, 500);
}
