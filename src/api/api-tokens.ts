/**
 * Bearer tokens map to approver identities and groups. Tokens are compared in constant time: every configured
 * token is checked (no early exit) by comparing SHA-256 digests with `timingSafeEqual`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { EnvConfig } from '../config.js';
import { readJsonSetting } from '../json-setting.js';
import { IDENTITY_NAME_RULE, isIdentityName } from '../bounds/identity-names.js';

// An empty name is zod's own "too small" alone.
const Name = z
  .string()
  .min(1)
  .refine((name) => name === '' || isIdentityName(name), IDENTITY_NAME_RULE);

export const Identity = z.strictObject({
  approver: Name,
  groups: z.array(Name).default([]),
});

/**
 * A policy's bare approver entry matches a person or a group of that name (src/policy/may-decide.ts), so a name that
 * is both would give the person the group's authority: the configuration is refused until one is renamed.
 */
export const ApiTokens = z.record(z.string().min(16, 'tokens must be at least 16 characters'), Identity).superRefine((tokens, ctx) => {
  const people = new Set(Object.values(tokens).map((identity) => identity.approver));
  const both = [...new Set(Object.values(tokens).flatMap((identity) => identity.groups))].filter((group) => people.has(group));
  for (const name of both) {
    ctx.addIssue({
      code: 'custom',
      message: `"${name}" is both a person and a group: a policy's approver "${name}" would match either. Rename one (a policy can also say user:${name} or group:${name}).`,
    });
  }
});

export type Identity = z.infer<typeof Identity>;
export type ApiTokens = z.infer<typeof ApiTokens>;

export function tokensFromEnv(config: EnvConfig): ApiTokens {
  const values = { inline: config.HITL_API_TOKENS, file: config.HITL_API_TOKENS_FILE, secretKeys: true };
  return readJsonSetting('HITL_API_TOKENS', values, ApiTokens) ?? {};
}

const digest = (value: string) => createHash('sha256').update(value).digest();

export class TokenVerifier {
  private readonly entries: { digest: Buffer; identity: Identity }[];

  /** `compare` is `timingSafeEqual`; tests pass a counting one. */
  constructor(
    tokens: ApiTokens,
    private readonly compare: (a: Buffer, b: Buffer) => boolean = timingSafeEqual,
  ) {
    this.entries = Object.entries(tokens).map(([token, identity]) => ({ digest: digest(token), identity }));
  }

  /** The identity for a presented token, or undefined; takes the same time whichever token matches. */
  verify(presented: string): Identity | undefined {
    const given = digest(presented);
    let found: Identity | undefined;
    for (const entry of this.entries) {
      if (this.compare(given, entry.digest)) found = entry.identity;
    }
    return found;
  }
}
