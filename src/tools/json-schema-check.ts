/**
 * Checks a value against a JSON Schema with @cfworker/json-schema: an interpreter (no code generation, no eval),
 * so it runs inside the workflow sandbox and decides the same on every replay. MCP tools' arguments are checked
 * with it in the workflow (before the gate and on edits) and again in the activity, before the call.
 *
 * Schemas come from MCP servers and are hostile until checked: nothing here throws. A schema that cannot be
 * applied (a bad regular expression, say) is a failed check whose message says so.
 */
import { Validator, type OutputUnit, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import { jsonDepthExceeds } from '../bounds/json-depth.js';

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

export function checkJsonSchema(schema: Record<string, unknown>, value: unknown): SchemaCheck {
  if (jsonDepthExceeds(value)) return { ok: false, problems: ['arguments: nested deeper than 64 levels'] };
  try {
    const result = new Validator(schema as Schema, draftOf(schema), false).validate(value);
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
