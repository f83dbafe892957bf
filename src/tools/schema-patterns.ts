/**
 * The `pattern`s and `patternProperties` of JSON Schemas (an MCP server's tool, an agent's response format or context
 * schema), run by RE2 (re2js), as `matches` conditions are (src/policy/patterns.ts). @cfworker/json-schema compiles
 * them with JavaScript's RegExp, which backtracks: an MCP server's `^(a+)+$` against 34 characters a model chose
 * held a workflow task until the worker process died, and the task then failed on every worker that took it; a
 * response format's pattern held the worker's event loop (the API's too, under `npm start`) for as long.
 *
 * The validator takes no engine of its own, but it reaches RegExp as a global, only through `new RegExp(pattern,
 * 'u')` and `.test()`, and synchronously: `withLinearPatterns` lends it a stand-in for the one call. A schema whose
 * patterns RE2 cannot run (lookaround, backreferences) or that are too large is refused where it is taken
 * (`linearPatternProblem`: the MCP listing, defineAgent), so every pattern that reaches a value compiles.
 */
import { RE2JS } from 're2js';

/**
 * RE2's time is linear in the text and in the compiled program: 312 instructions took 0.5 s over 64 KiB (the most a
 * call's arguments hold) on a loaded two-core machine, `^[A-Za-z0-9_-]{1,64}$` is 131. Per pattern, and for all of a
 * schema's together, since a value may meet every one of them.
 */
export const MAX_SCHEMA_PATTERN_PROGRAM = 256;
export const MAX_SCHEMA_PATTERNS_PROGRAM = 512;

/**
 * The work one check may do, counted, not timed, so that a replay decides the same: reads of the schema (the
 * validator walks it anew for every value it checks, and a `$ref` or `allOf` that names a part twice doubles the
 * walk: a tester's 22 levels of `allOf: [{$ref: d}, {$ref: d}]`, 2 KiB of schema, took 52 s over `{"s": "abc"}`),
 * and patterns' work, the text's length times the pattern's instructions (16,000 one-letter items under one pattern
 * took 4.8 s when each was compiled anew). Each bound holds a check to well under a second here; a normal call's
 * check reads its schema a few thousand times.
 */
export const MAX_SCHEMA_READS = 2_000_000;
export const MAX_PATTERN_WORK = 64_000_000;
/**
 * The validator's work on the value (withBoundedWork, patch set 29), which it does without reading the schema: each
 * time it reaches a part of the value (a key, an item) it pays VALUE_READ_COST and the length of the key and of a
 * string it finds, since what it does there is as long (a location string with the key in it, a string's length in
 * code points, a problem built for the part: `additionalProperties: false` reads no schema per key). Testers' 2^13
 * references to one part over one 64 KiB key took 3.1 s, and 700 references to `additionalProperties: false` over
 * 8,000 keys 5.4 s, both within every count above; this bound stops each under a second here. A check of 32,000
 * items against 20 alternatives each stays within it.
 */
export const VALUE_READ_COST = 64;
export const MAX_VALUE_WORK = 64_000_000;

/** A check that would do more than the bounds above: the call is refused as one that cannot be checked. */
export class SchemaCheckTooCostly extends Error {}

/** What the check under way has done: each check counts its own, from zero. */
interface Work {
  reads: number;
  patternWork: number;
  valueWork: number;
  /** Each pattern compiled once per check, however many values it meets. */
  programs: Map<string, RE2JS>;
}
let work: Work | undefined;

/** A schema pattern (JavaScript's syntax, flag `u`) as RE2 runs it; throws with RE2's reason if it cannot. */
function compiled(pattern: string): RE2JS {
  return RE2JS.compile(RE2JS.translateRegExp(pattern));
}

/** What the validator gets for RegExp while `withLinearPatterns` runs: what it uses of one, by RE2. */
class LinearRegExp {
  readonly #program: RE2JS;
  constructor(pattern: string) {
    const text = String(pattern);
    const known = work?.programs.get(text);
    this.#program = known ?? compiled(text);
    if (!known) work?.programs.set(text, this.#program);
  }
  test(text: string): boolean {
    const value = String(text);
    if (work) {
      work.patternWork += (value.length + 1) * this.#program.programSize();
      if (work.patternWork > MAX_PATTERN_WORK) throw new SchemaCheckTooCostly('its patterns would take too long over these arguments');
    }
    return this.#program.matcher(value).find();
  }
}

/**
 * Keywords the check leaves to the tool, whose work no count here can see: `format`, which JSON Schema 2020-12 makes
 * an annotation unless a schema asks for more, and which the validator checks with regular expressions of its own
 * that backtrack (`format: "url"` took 11 s over a 46-byte value, twice as long with each character more), and
 * `uniqueItems`, which compares every pair of items (6 s for one array under 50 references to it). A tool that cares
 * checks them itself; an MCP server does, as it validates its own input.
 */
const UNASSERTED = new Set<string | symbol>(['format', 'uniqueItems']);

/**
 * The schema as the validator reads it during one check: every read counted (SchemaCheckTooCostly past
 * MAX_SCHEMA_READS), each part wrapped once, so the validator meets the same object wherever it meets a part again.
 */
function counted<T extends object>(schema: T, wrapped = new WeakMap<object, object>()): T {
  const known = wrapped.get(schema);
  if (known) return known as T;
  const proxy = new Proxy(schema, {
    get(target, key) {
      if (UNASSERTED.has(key)) return undefined;
      if (work && ++work.reads > MAX_SCHEMA_READS)
        throw new SchemaCheckTooCostly('checking these arguments against it would take too long');
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'object' && value !== null ? counted(value, wrapped) : value;
    },
  });
  wrapped.set(schema, proxy);
  return proxy;
}

/**
 * `check(schema)` with RegExp standing for RE2 (LinearRegExp) and its work bounded: the schema it gets is the one
 * given, read through a counter. For the validator's synchronous work only; RegExp is given back before anything else
 * runs, also when the check throws. In the workflow sandbox the global is the run's own.
 */
export function withLinearPatterns<S extends object, T>(schema: S, check: (schema: S) => T): T {
  const engine = globalThis.RegExp;
  const outer = work;
  work = { reads: 0, patternWork: 0, valueWork: 0, programs: new Map() };
  globalThis.RegExp = LinearRegExp as unknown as RegExpConstructor;
  try {
    return check(counted(schema));
  } finally {
    globalThis.RegExp = engine;
    work = outer;
  }
}

/**
 * `withLinearPatterns`, with the value the validator checks read through a counter too (MAX_VALUE_WORK): for the
 * checks of patch set 29 and after (json-schema-check.ts). Past the bound, SchemaCheckTooCostly.
 */
export function withBoundedWork<S extends object, V, T>(schema: S, value: V, check: (schema: S, value: V) => T): T {
  return withLinearPatterns(schema, (read) => check(read, measured(value, new WeakMap())));
}

/**
 * `value` as the validator reads it in `withBoundedWork`: each key and string it reaches paid for (valueWork). The
 * proxy stands over an empty object or array, so that a frozen value's parts, which a proxy of the value itself
 * would have to return unwrapped, are measured too.
 */
function measured<V>(value: V, wrapped: WeakMap<object, object>): V {
  if (typeof value !== 'object' || value === null) return value;
  const known = wrapped.get(value);
  if (known) return known as V;
  const real = value as object;
  const pay = (cost: number) => {
    if (work && (work.valueWork += cost) > MAX_VALUE_WORK)
      throw new SchemaCheckTooCostly('checking these arguments against it would take too long');
  };
  const keyCost = (key: string | symbol) => VALUE_READ_COST + (typeof key === 'string' ? key.length : 0);
  const proxy = new Proxy(Array.isArray(real) ? [] : {}, {
    get(_, key) {
      const read: unknown = Reflect.get(real, key);
      pay(keyCost(key) + (typeof read === 'string' ? read.length : 0));
      return measured(read, wrapped);
    },
    has: (_, key) => Reflect.has(real, key),
    ownKeys() {
      const keys = Reflect.ownKeys(real);
      pay(keys.reduce((sum, key) => sum + keyCost(key), 0));
      return keys;
    },
    // What `for…in` and Object.keys ask of each key. A part the stand-in lacks must be reported configurable; the
    // array stand-in's own length is reported as the value's (not configurable, like the stand-in's).
    getOwnPropertyDescriptor(standIn, key) {
      const own = Reflect.getOwnPropertyDescriptor(real, key);
      return !own || Reflect.getOwnPropertyDescriptor(standIn, key) ? own : { ...own, configurable: true };
    },
  });
  wrapped.set(real, proxy);
  return proxy as V;
}

/** Why `pattern` may not be in a schema, or undefined if RE2 runs it within the budget; `size` adds to a total. */
export function linearPatternProblem(pattern: string, size: { total: number } = { total: 0 }): string | undefined {
  let program: RE2JS;
  try {
    program = compiled(pattern);
  } catch (err) {
    return `RE2 cannot run it (RE2 has no lookaround or backreferences): ${err instanceof Error ? err.message : String(err)}`;
  }
  const own = program.programSize();
  size.total += own;
  if (own > MAX_SCHEMA_PATTERN_PROGRAM) return `it is too large (${own} RE2 instructions; at most ${MAX_SCHEMA_PATTERN_PROGRAM})`;
  if (size.total > MAX_SCHEMA_PATTERNS_PROGRAM) {
    return `the schema's patterns are too large together (${size.total} RE2 instructions so far; at most ${MAX_SCHEMA_PATTERNS_PROGRAM})`;
  }
  return undefined;
}
