/**
 * A person's or a group's name, as policies, four eyes and quorums compare it: exactly, so `alice ` would count as
 * another approver than `alice`. Where people name themselves or others (API tokens, the CLI's `--as` and `--group`),
 * a name with white space around it or a control character in it is refused rather than kept as given.
 */
import { z } from 'zod';

export const IDENTITY_NAME_RULE = 'a name has no white space around it and no control characters';

export const IdentityName = z
  .string()
  .min(1)
  .regex(/^(?!\s)[^\p{Cc}]*(?<!\s)$/u, IDENTITY_NAME_RULE);
