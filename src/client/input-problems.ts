/**
 * What a refused input says: zod's own rendering (every problem, each with where it is), except that a value that
 * fits none of a union's types says which types those were. zod reports it as a bare "Invalid input" and keeps each
 * alternative's "expected …" nested where its prettifier does not look (`--interrupt '{"afterModel": "yes"}'`).
 */
import { z } from 'zod';

export function inputProblems(error: z.ZodError): string {
  return z.prettifyError(new z.ZodError(error.issues.map(withUnionTypes)));
}

/** A union's refusal of a value of the wrong type as "expected boolean or object, received string". */
function withUnionTypes(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  const expected: string[] = [];
  for (const alternative of issue.errors) {
    const only = alternative[0];
    // An alternative that got past the type check has its own problems: zod reports those, not this.
    if (alternative.length !== 1 || only?.code !== 'invalid_type' || only.path.length > 0) return issue;
    if (!expected.includes(only.expected)) expected.push(only.expected);
  }
  const received = /, received (.+)$/.exec(issue.errors[0]![0]!.message)?.[1];
  return { ...issue, message: `Invalid input: expected ${expected.join(' or ')}${received ? `, received ${received}` : ''}` };
}
