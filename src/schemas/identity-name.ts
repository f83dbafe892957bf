/** A person's or a group's name where people name themselves or others: src/bounds/identity-names.ts says why. */
import { z } from 'zod';
import { IDENTITY_NAME_RULE, isIdentityName } from '../bounds/identity-names.js';

export const IdentityName = z.string().min(1).refine(isIdentityName, IDENTITY_NAME_RULE);
