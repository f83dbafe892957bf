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

const UNITS = [
  { size: 86_400_000, short: 'd', long: 'day' },
  { size: 3_600_000, short: 'h', long: 'hour' },
  { size: 60_000, short: 'm', long: 'minute' },
  { size: 1000, short: 's', long: 'second' },
  { size: 1, short: 'ms', long: 'millisecond' },
] as const;

/**
 * A duration in the largest unit that holds it exactly (`90s`, `15m`, `1 day`), which `durationToMs` reads back as
 * it was, to the microsecond. `ms`'s own formatter rounds (90 s is `2m`), which told people another time than the run
 * kept. A parse's floating-point dust goes first (`1.005s` is 1004.9999999999999 ms: `1005ms`).
 */
export function durationText(milliseconds: number, long = false): string {
  const value = Math.round(milliseconds * 1000) / 1000;
  const unit = UNITS.find(({ size }) => Number.isInteger(value / size)) ?? UNITS[UNITS.length - 1]!;
  const count = value / unit.size;
  return long ? `${count} ${unit.long}${count === 1 ? '' : 's'}` : `${count}${unit.short}`;
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
