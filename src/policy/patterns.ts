/**
 * `matches` conditions, run by RE2 (re2js, a port of Google's RE2 to JavaScript): time linear in the text, whatever
 * the pattern. JavaScript's own engine backtracks, so a pattern like `^(a+)+$` against 30 characters of an argument
 * the model chose ran for minutes inside a workflow task, until the SDK's deadlock detector stopped the worker
 * process; the task then came back to every worker that took it. RE2 has no lookaround and no backreferences,
 * which is what makes it linear: a policy that uses them is refused where it is defined.
 */
import { RE2JS } from 're2js';

/**
 * RE2's time is linear in the text and in the size of the compiled pattern; a counted repetition (`a{1,100}`)
 * compiles to a state for each count. At most this many instructions: about 0.2 s for a 64 KiB argument, the most a
 * call's arguments hold, on a loaded two-core machine.
 */
export const MAX_PATTERN_PROGRAM = 100;
/** Characters in a pattern. */
export const MAX_PATTERN_CHARS = 500;

const FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, u: 0 };

/** Compiles a pattern with the flags `imsu`; throws with RE2's reason if it cannot run. */
function compile(pattern: string, flags: string): RE2JS {
  let bits = 0;
  for (const flag of flags) bits |= FLAGS[flag] ?? 0;
  return RE2JS.compile(pattern, bits);
}

/** Why `pattern` may not be used in a `matches` condition, or undefined if it may. */
export function patternProblem(pattern: string, flags = ''): string | undefined {
  if (pattern.length > MAX_PATTERN_CHARS) return `a pattern has at most ${MAX_PATTERN_CHARS} characters`;
  let compiled: RE2JS;
  try {
    compiled = compile(pattern, flags);
  } catch (err) {
    return `not a pattern RE2 can run (no lookaround or backreferences): ${err instanceof Error ? err.message : String(err)}`;
  }
  const size = compiled.programSize();
  return size > MAX_PATTERN_PROGRAM ? `the pattern is too large (${size} RE2 instructions; at most ${MAX_PATTERN_PROGRAM})` : undefined;
}

/**
 * Whether `pattern` finds a match anywhere in `text`, as RegExp.test does. A pattern RE2 cannot run can only come
 * from a run started before patterns were checked for RE2: it keeps JavaScript's engine, as when it was checked.
 */
export function patternMatches(pattern: string, flags: string, text: string): boolean {
  let compiled: RE2JS;
  try {
    compiled = compile(pattern, flags);
  } catch {
    return new RegExp(pattern, flags).test(text);
  }
  return compiled.matcher(text).find();
}
