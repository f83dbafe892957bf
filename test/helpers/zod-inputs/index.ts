/**
 * Inputs for each feature of test/fixtures/zod-features: mostly values the feature should accept (built to its
 * rules), then near misses of them (one character deleted, inserted, replaced or re-cased), then any JSON.
 */
import type { Arb } from './basics.js';
import { stringCheckInputs, stringFormatInputs } from './string-inputs.js';
import { errorInputs, valueInputs } from './value-inputs.js';

export const zodFeatureInputs: Record<string, Arb> = { ...stringFormatInputs, ...stringCheckInputs, ...valueInputs, ...errorInputs };
