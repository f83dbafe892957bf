import { extraArgumentsMessage } from '../bounds/extra-arguments.js';
import { PATCHES, takesPatch } from './patches.js';

/**
 * Why input sent with more than its one argument is refused (src/bounds/extra-arguments.ts), or undefined; runs
 * started before patch oneArgumentEach take the first argument, as they did.
 */
export function extraArgumentsRefusal(what: string, extra: readonly unknown[]): string | undefined {
  return takesPatch(PATCHES.oneArgumentEach) ? extraArgumentsMessage(what, extra) : undefined;
}
