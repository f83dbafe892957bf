/**
 * Our call ids as a run writes them: `call-<n>`, and `call-<n>.<m>` from a call's second announcement on (a call
 * that waits again: an edit proposed into another tool, consent that lapsed, a changed world).
 */
export const OWN_CALL_ID = /^call-([1-9]\d*)(?:\.([2-9]|[1-9]\d+))?$/;

/**
 * The id under which the call `id` named waits now, when it was announced again after `id`; undefined otherwise. A
 * call's announcements count up (`call-3`, `call-3.2`, `call-3.3`): an id after the one waiting was never given.
 */
export function announcedAgainAs(id: string, pendingIds: readonly string[]): string | undefined {
  const asked = OWN_CALL_ID.exec(id);
  if (!asked) return undefined;
  const announcement = (match: RegExpExecArray) => Number(match[2] ?? 1);
  return pendingIds.find((other) => {
    const later = OWN_CALL_ID.exec(other);
    return later !== null && later[1] === asked[1] && announcement(later) > announcement(asked);
  });
}
