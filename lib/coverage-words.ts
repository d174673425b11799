// The coverage of a key's fills and plan orders and of a sub-account's balance history, in words: what an
// answer says it holds, so an empty one never reads as "none" where the ledger is not complete. Types only
// from lib/api (the pages that say these carry no schemas). Isomorphic.
import type { KeyCoverage, SnapshotCoverage } from "@/lib/api/ledger/coverage";

const count = (n: number) => n.toLocaleString("en-US");
const minute = (iso: string) => `${iso.replace("T", " ").slice(0, 16)} UTC`;
const NOUN = { fills: "fills", "plan-orders": "plan orders" } as const;

/**
 * One line for a fills or plan-orders answer: "Complete over this range for key "main" (up to 2026-11-29 00:10
 * UTC)", or what is not.
 */
export function keyCoverageText(c: KeyCoverage): string {
  const what = `${NOUN[c.dataset]} of key "${c.key}"${c.symbol ? ` in ${c.symbol}` : ""}`;
  const over = c.from ? "over this range" : "over their whole history";
  const upTo = c.completeTo ? ` (up to ${minute(c.completeTo)})` : "";
  if (c.total === 0) return `The ledger syncs no ${what} yet: not synced yet`;
  if (c.dataset === "fills" || c.symbol) {
    if (c.complete === c.total) return `Complete: every one of the ${what} ${over}${upTo}`;
    if (c.completeFrom === null) return `Not synced yet: the ledger holds none of the ${what} completely so far`;
    return `Not complete ${over}: the ledger holds the ${what} completely from ${minute(c.completeFrom)}${upTo}`;
  }
  const symbols = `${count(c.total)} symbol${c.total === 1 ? "" : "s"} the ledger syncs for key "${c.key}"`;
  if (c.complete === c.total) return `Complete for the ${symbols} ${over}${upTo}`;
  const named = c.missingSymbols.join(", ");
  return `Complete for ${count(c.complete)} of the ${symbols} ${over}; not synced back far enough: ${named}`;
}

/** What an empty fills or plan-orders answer says when the range is not complete (null: the empty is the truth). */
export function keyNotSyncedText(c: KeyCoverage): string | null {
  if (c.total > 0 && c.complete === c.total) return null;
  return `Not synced yet: nothing in the ledger so far. ${keyCoverageText(c)}.`;
}

/** A balance history's coverage in words: which of the days asked have a snapshot, and the gaps. */
export function snapshotCoverageText(c: SnapshotCoverage): string {
  if (c.held === 0) return `No snapshot of ${c.from} to ${c.to} (UTC days): not synced yet`;
  const before = c.firstHeld && c.firstHeld > c.from ? `; none before ${c.firstHeld}, the first` : "";
  const gaps = c.gapCount
    ? `; ${count(c.gapCount)} day${c.gapCount === 1 ? "" : "s"} since without one (${c.gaps.join(", ")}` +
      `${c.gapCount > c.gaps.length ? ", …" : ""}): their balances are not known`
    : "";
  return `Snapshots of ${count(c.held)} of the ${count(c.days)} UTC days asked${before}${gaps}`;
}
