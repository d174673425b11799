// How many sub-accounts count as active (a deposit in the last week), said so that a count the sync is still
// learning does not read as final: the schedule counts only sub-accounts whose history is complete, so while
// some are backfilling it is a floor.
import { formatUtc } from "@/lib/format";

export function activeCount(active: number, freshness: { backfilled: number; subaccounts: number }): string {
  const n = active.toLocaleString("en-US");
  return freshness.backfilled < freshness.subaccounts
    ? `${n} so far, among the ${freshness.backfilled.toLocaleString("en-US")} with their history complete`
    : n;
}

/**
 * How often each kind is checked; one figure when the budget gives both the same. While histories are being
 * backfilled the backfill goes first (backfillWords says the pace until then), so the schedule is said as what
 * holds once they are complete.
 */
export function checkPace(activeEverySeconds: number, otherEverySeconds: number, backfilling = false): string {
  const s = (n: number) => `${n.toLocaleString("en-US")} s`;
  const are = backfilling ? "will be checked, once every history is complete," : "are checked";
  return activeEverySeconds === otherEverySeconds
    ? `${are} at least every ${s(activeEverySeconds)}, as every other ${backfilling ? "will be" : "is"}`
    : `${are} every ${s(activeEverySeconds)}, every other at least every ${s(otherEverySeconds)}`;
}

/**
 * When the last three months and every history will be complete, from the measured rate: "The last three
 * months are complete for 9,812 of 10,000 sub-accounts (all by 2026-11-28 22:41 UTC, at 9.1 calls/s); every
 * history for 4,100 (all by …)".
 */
export function backfillWords(
  b: {
    registry: number;
    recentComplete: number;
    historyComplete: number;
    callsPerSecond: number;
    recentCompleteAt: string | null;
    historyCompleteAt: string | null;
    checkEverySeconds: number | null;
    checkShare: number;
  },
  on: boolean,
): string {
  const n = (v: number) => v.toLocaleString("en-US");
  const when = (iso: string | null, done: boolean) =>
    done
      ? "all of them"
      : iso
        ? `all by ${formatUtc(Date.parse(iso))}`
        : on
          ? ""
          : "none expected here: the sync is off";
  const part = (done: number, iso: string | null) => {
    const w = when(iso, done === b.registry);
    return `${n(done)} of ${n(b.registry)}${w ? ` (${w})` : ""}`;
  };
  return (
    `Deposit history: the last three months complete for ${part(b.recentComplete, b.recentCompleteAt)}; ` +
    `the whole history for ${part(b.historyComplete, b.historyCompleteAt)}` +
    (on ? `, at the sync's measured ${b.callsPerSecond} calls/s.` : ".") +
    (b.checkEverySeconds === null
      ? ""
      : ` Until then the backfill goes first and checks take at most ${Math.round(b.checkShare * 100)}% of the ` +
        `calls: a sub-account is checked again about every ${n(b.checkEverySeconds)} s.`)
  );
}
