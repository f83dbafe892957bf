/** Checks edited arguments in the page, against the same JSON Schema the model was given, before anything is sent. */
import { Validator } from '@cfworker/json-schema';

/** Keywords that only say "something below failed"; the specific error below is the useful one. */
const SUMMARY_KEYWORDS = new Set(['properties', 'patternProperties', 'items', 'prefixItems', 'false', '$ref', 'allOf']);

/** The draft a schema declares (MCP servers often send draft-07); 2020-12 when it declares none. */
function draftOf(schema) {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-06') || declared.includes('draft-07')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

const validators = new WeakMap();
function validatorFor(schema) {
  if (!validators.has(schema)) validators.set(schema, new Validator(schema, draftOf(schema), false));
  return validators.get(schema);
}

/** "#/items/0/name" → "items.0.name" (JSON Pointer, unescaped) */
function where(instanceLocation) {
  if (instanceLocation === '#') return 'arguments';
  return instanceLocation
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

/**
 * @param {string} text what the user typed
 * @param {object | undefined} schema the tool's JSON Schema; without one only the JSON shape is checked
 * @returns {{args?: Record<string, unknown>, problems?: string[]}} `problems` is absent when the edit may be sent
 */
export function checkEditedArgs(text, schema) {
  let args;
  try {
    args = JSON.parse(text);
  } catch (error) {
    return { problems: [`This is not valid JSON: ${error.message}`] };
  }
  if (!args || typeof args !== 'object' || Array.isArray(args))
    return { problems: ['The arguments must be a JSON object, like {"name": "value"}.'] };
  if (!schema) return { args };
  const result = validatorFor(schema).validate(args);
  if (result.valid) return { args };
  const specific = result.errors.filter((e) => !SUMMARY_KEYWORDS.has(e.keyword));
  return { args, problems: (specific.length ? specific : result.errors).map((e) => `${where(e.instanceLocation)}: ${e.error}`) };
}
