/**
 * What a refused input says: zod's own rendering (every problem, each with where it is), except for a value a union
 * refused. zod reports that as a bare "Invalid input" and keeps each alternative's problems nested where its
 * prettifier does not look (`--interrupt '{"afterModel": "yes"}'`, an approver entry that is a number).
 */
import { z } from 'zod';

export function inputProblems(error: z.ZodError): string {
  return z.prettifyError(new z.ZodError(error.issues.flatMap(explained)));
}

/**
 * A union's refusal as what is wrong with the value: when one alternative took the value's type, its own problems,
 * where they are (`approvers: [123]` in a tool's policy, a boolean or an object, is "expected string" at
 * `approvers[0]`, not "Invalid input" at the tool); when none did, the types it could have been.
 */
function explained(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
  const typed = issue.errors.filter((alternative) => !isWrongType(alternative));
  if (typed.length === 1) return typed[0]!.flatMap((inner) => explained({ ...inner, path: [...issue.path, ...inner.path] }));
  return [typed.length === 0 ? withUnionTypes(issue) : issue];
}

/** An alternative that refused the value's type as a whole, before looking inside it. */
function isWrongType(alternative: z.core.$ZodIssue[]): boolean {
  const only = alternative[0];
  return alternative.length === 1 && only?.code === 'invalid_type' && only.path.length === 0;
}

/** A union's refusal of a value of the wrong type as "expected boolean or object, received string". */
function withUnionTypes(issue: z.core.$ZodIssue & { code: 'invalid_union' }): z.core.$ZodIssue {
  const expected: string[] = [];
  for (const alternative of issue.errors) {
    const only = alternative[0] as z.core.$ZodIssue & { code: 'invalid_type' };
    if (!expected.includes(only.expected)) expected.push(only.expected);
  }
  const received = /, received (.+)$/.exec(issue.errors[0]![0]!.message)?.[1];
  return { ...issue, message: `Invalid input: expected ${expected.join(' or ')}${received ? `, received ${received}` : ''}` };
}
