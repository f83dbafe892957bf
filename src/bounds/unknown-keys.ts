/**
 * Keys of an object that a schema does not take: what someone wrote and meant, which parsing would drop without a
 * word (a misspelled start option, an argument the tool has not). Empty for anything that is not a plain object.
 */
export function keysNotIn(value: unknown, known: object): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.keys(value).filter((key) => !Object.hasOwn(known, key));
}
