/**
 * Our call ids as a run writes them: `call-<n>`, and `call-<n>.<m>` from a call's second announcement on (a call
 * that waits again: an edit proposed into another tool, consent that lapsed, a changed world).
 */
export const OWN_CALL_ID = /^call-([1-9]\d*)(?:\.([2-9]|[1-9]\d+))?$/;

/** The id under which the call `id` named waits now, when it was announced again; undefined otherwise. */
export function announcedAgainAs(id: string, pendingIds: readonly string[]): string | undefined {
  const call = OWN_CALL_ID.exec(id)?.[1];
  if (call === undefined) return undefined;
  return pendingIds.find((other) => other !== id && OWN_CALL_ID.exec(other)?.[1] === call);
}
