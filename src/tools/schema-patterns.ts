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

/** A schema pattern (JavaScript's syntax, flag `u`) as RE2 runs it; throws with RE2's reason if it cannot. */
function compiled(pattern: string): RE2JS {
  return RE2JS.compile(RE2JS.translateRegExp(pattern));
}

/** What the validator gets for RegExp while `withLinearPatterns` runs: what it uses of one, by RE2. */
class LinearRegExp {
  readonly #program: RE2JS;
  constructor(pattern: string) {
    this.#program = compiled(String(pattern));
  }
  test(text: string): boolean {
    return this.#program.matcher(String(text)).find();
  }
}

/**
 * `check()` with RegExp standing for RE2 (LinearRegExp): for the validator's synchronous work only, and given back
 * before anything else runs, also when it throws. In the workflow sandbox the global is the run's own.
 */
export function withLinearPatterns<T>(check: () => T): T {
  const engine = globalThis.RegExp;
  globalThis.RegExp = LinearRegExp as unknown as RegExpConstructor;
  try {
    return check();
  } finally {
    globalThis.RegExp = engine;
  }
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
