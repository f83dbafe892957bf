import ms from 'ms';
import { z } from 'zod';
import { builtOnce } from './built-once.js';

/** Parses `'3d'`, `'90s'`, `'2 hours'` (the `ms` format Temporal uses) into milliseconds; numbers are milliseconds. */
export function durationToMs(duration: string | number): number {
  const value = typeof duration === 'number' ? duration : ms(duration as ms.StringValue);
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`"${duration}" is not a positive duration like '30s', '2h' or '3d'`);
  }
  return value;
}

/** A positive duration like `'3d'`. */
export const Duration = builtOnce('schemas/duration.Duration', () =>
  z.string().refine(
    (value) => {
      try {
        durationToMs(value);
        return true;
      } catch {
        return false;
      }
    },
    { message: "expected a positive duration like '30s', '2h' or '3d'" },
  ),
);
