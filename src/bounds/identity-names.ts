/**
 * A person's or a group's name, as policies, four eyes and quorums compare it: exactly, so `alice ` would count as
 * another approver than `alice`. Wherever names come from outside (API tokens, the CLI's `--as` and `--group`, a
 * decision's `approver` and `groups`), one with white space around it or a control character in it is refused
 * rather than kept as given. No zod here: the decision planner runs it in the workflow sandbox.
 */
export const IDENTITY_NAME_RULE = 'a name has no white space around it and no control characters';

const NAME = /^(?!\s)[^\p{Cc}]*(?<!\s)$/u;

export function isIdentityName(name: string): boolean {
  return name.length > 0 && NAME.test(name);
}
