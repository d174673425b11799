// How many sub-accounts count as active (a deposit in the last week), said so that a count the sync is still
// learning does not read as final: the schedule counts only sub-accounts whose history is complete (a
// backfilling one is checked on the backfill's own pace), so while some are backfilling it is a floor.

export function activeCount(active: number, freshness: { backfilled: number; subaccounts: number }): string {
  const n = active.toLocaleString("en-US");
  return freshness.backfilled < freshness.subaccounts
    ? `${n} so far, among the ${freshness.backfilled.toLocaleString("en-US")} with their history complete`
    : n;
}

/** How often each kind is checked; one figure when the budget gives both the same. */
export function checkPace(activeEverySeconds: number, otherEverySeconds: number): string {
  const s = (n: number) => `${n.toLocaleString("en-US")} s`;
  return activeEverySeconds === otherEverySeconds
    ? `are checked at least every ${s(activeEverySeconds)}, as every other is`
    : `are checked every ${s(activeEverySeconds)}, every other at least every ${s(otherEverySeconds)}`;
}
