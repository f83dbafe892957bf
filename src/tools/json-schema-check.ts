/**
 * Checks a value against a JSON Schema with @cfworker/json-schema: an interpreter (no code generation, no eval),
 * so it runs inside the workflow sandbox and decides the same on every replay. MCP tools' arguments are checked
 * with it in the workflow (before the gate and on edits) and again in the activity, before the call.
 *
 * Schemas come from MCP servers and are hostile until checked: nothing here throws. A schema that cannot be
 * applied (a bad regular expression, say) is a failed check whose message says so.
 */
import { dereference, Validator, type OutputUnit, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import { jsonDepthExceeds } from '../bounds/json-depth.js';
import { linearPatternProblem, withBoundedWork, withLinearPatterns } from './schema-patterns.js';

export type SchemaCheck = { ok: true } | { ok: false; problems: string[] };

/** Keywords that only say "something below failed"; the specific error below is the useful one. */
const SUMMARY_KEYWORDS = new Set(['properties', 'patternProperties', 'items', 'prefixItems', 'false', '$ref', 'allOf']);
const MAX_PROBLEMS = 10;

/** The draft a schema declares (`$schema`); 2020-12 when it declares none, as the MCP spec says. */
export function draftOf(schema: Record<string, unknown>): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-06') || declared.includes('draft-07')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/**
 * How a check runs, by the patch set of the run that makes it (the workflow must decide as it did when it recorded):
 * - `bounded` (patch set 29 and after, and everything outside the workflow): patterns by RE2, the schema's and the
 *   value's work counted (schema-patterns.ts), and the validator's short-circuit on: a part stops at its first
 *   failing property or item and skips its later keywords, as Ajv does unless asked for `allErrors`, which its
 *   authors advise against with untrusted input. Building every problem cost seconds and gigabytes: a 15 KiB
 *   `const`'s message was built for each of 32,000 failing items, and 700 references to `additionalProperties:
 *   false` over 8,000 keys (which the short-circuit does not stop; the value's count does) took 5.4 s and 1.6 GB;
 * - `linear` (patch set 28): patterns by RE2 and the schema's reads counted, every problem;
 * - `backtracking` (before): patterns by JavaScript's RegExp, nothing counted, every problem.
 */
export type SchemaCheckMode = 'bounded' | 'linear' | 'backtracking';

export function checkJsonSchema(
  schema: Record<string, unknown>,
  value: unknown,
  { mode = 'bounded' }: { mode?: SchemaCheckMode } = {},
): SchemaCheck {
  if (jsonDepthExceeds(value)) return { ok: false, problems: ['arguments: nested deeper than 64 levels'] };
  try {
    const draft = draftOf(schema);
    const result =
      mode === 'bounded'
        ? withBoundedWork(schema, value, (read, measured) => new Validator(read as Schema, draft, true).validate(measured))
        : mode === 'linear'
          ? withLinearPatterns(schema, (read) => new Validator(read as Schema, draft, false).validate(value))
          : new Validator(schema as Schema, draft, false).validate(value);
    if (result.valid) return { ok: true };
    const specific = result.errors.filter((e) => !SUMMARY_KEYWORDS.has(e.keyword));
    const problems = (specific.length ? specific : result.errors).map(describe);
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > shown.length) shown.push(`…and ${problems.length - shown.length} more`);
    return { ok: false, problems: shown.length ? shown : ['arguments: does not match the schema'] };
  } catch (err) {
    return { ok: false, problems: [`the tool's schema could not be applied (${err instanceof Error ? err.message : String(err)})`] };
  }
}

/** Something in a schema that throws once a value reaches it; `path` is where in the schema. */
export interface SchemaFault {
  path: string[];
  message: string;
}

/**
 * What in a schema would throw once a value reaches it, found before any value does. The validator compiles each
 * `pattern` and `patternProperties` key (by RE2, schema-patterns.ts) and resolves each `$ref` only when a value gets
 * there, so a check against `{}` misses those under properties, items, branches or `$defs`, and the first real value
 * fails instead.
 * This walks the lookup the validator builds (its constructor is `dereference(schema)`), which holds every
 * subschema it can reach, and compiles and resolves as `validate` does. Empty when every part applies.
 */
export function schemaFaults(schema: Record<string, unknown>): SchemaFault[] {
  let lookup: Record<string, unknown>;
  try {
    lookup = dereference(schema as Schema);
  } catch (err) {
    return [{ path: [], message: `the schema cannot be applied: ${errorMessage(err)}` }];
  }
  const places = new Map<Record<string, unknown>, string[]>();
  for (const [uri, sub] of Object.entries(lookup)) {
    if (typeof sub !== 'object' || sub === null) continue;
    const path = pointerOf(uri);
    const known = places.get(sub as Record<string, unknown>);
    // A subschema with its own `$id` is listed twice: under its id, and under its place in the whole.
    if (!known || (path && path.length > known.length)) places.set(sub as Record<string, unknown>, path ?? known ?? []);
  }
  const faults: SchemaFault[] = [];
  const size = { total: 0 };
  for (const [sub, at] of places) {
    // As `validate` runs them (withLinearPatterns): by RE2, within its budget.
    const compile = (pattern: unknown, path: string[]) => {
      const problem = typeof pattern === 'string' ? linearPatternProblem(pattern, size) : 'it is not a string';
      if (problem) faults.push({ path: [...at, ...path], message: `the pattern cannot be used: ${problem}` });
    };
    if (sub.pattern !== undefined) compile(sub.pattern, ['pattern']);
    const patternProperties = sub.patternProperties;
    if (typeof patternProperties === 'object' && patternProperties !== null)
      for (const key of Object.keys(patternProperties)) compile(key, ['patternProperties', key]);
    const ref = (sub as { __absolute_ref__?: string }).__absolute_ref__ ?? sub.$ref;
    if (sub.$ref !== undefined && lookup[ref as string] === undefined)
      faults.push({ path: [...at, '$ref'], message: `${JSON.stringify(sub.$ref)} names no part of the schema` });
  }
  if (faults.length) return faults;
  // What else throws (a keyword of the wrong type, say) is found where any value reaches it: at the top.
  try {
    withBoundedWork(schema, {}, (read, measured) => new Validator(read as Schema, draftOf(schema), true).validate(measured));
    return [];
  } catch (err) {
    return [{ path: [], message: `the schema cannot be applied: ${errorMessage(err)}` }];
  }
}

/** "https://…#/properties/a%20b" → ['properties', 'a b']; undefined for a key that is no JSON Pointer (an id, an anchor). */
function pointerOf(uri: string): string[] | undefined {
  const hash = uri.indexOf('#');
  const fragment = hash < 0 ? '' : uri.slice(hash + 1);
  if (!fragment.startsWith('/')) return undefined;
  try {
    return fragment
      .slice(1)
      .split('/')
      .map((part) => decodeURIComponent(part).split('~1').join('/').split('~0').join('~'));
  } catch {
    return undefined;
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function describe(unit: OutputUnit): string {
  return `${where(unit.instanceLocation)}: ${unit.error}`.slice(0, 500);
}

/** "#/items/0/name" → "items.0.name" (JSON Pointer, unescaped) */
function where(instanceLocation: string): string {
  if (instanceLocation === '#') return 'arguments';
  return instanceLocation
    .slice(2)
    .split('/')
    .map((part) => part.split('~1').join('/').split('~0').join('~'))
    .join('.');
}
