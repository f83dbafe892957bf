/** How a run writes a duration for people and the model: exactly from patch exactDurations, before as `ms` rounded it. */
import ms from 'ms';
import { durationText } from '../schemas/duration.js';
import { PATCHES, takesPatch } from './patches.js';

export function runDuration(milliseconds: number, long = false): string {
  return takesPatch(PATCHES.exactDurations) ? durationText(milliseconds, long) : ms(milliseconds, { long });
}
