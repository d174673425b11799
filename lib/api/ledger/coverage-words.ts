// What an answer over the ledger covers, in words: the line under a ledger list, a sub-account's history, an
// incomplete export's first line, and what an empty answer says when the ledger does not hold the range. Apart
// from the schemas (./coverage), so a page shows them without loading zod. Isomorphic, no zod.

/** What the words need of a coverage answer (LedgerCoverage, ./coverage). */
export type CoverageCounts = { from: string | null; total: number; complete: number };
/** What the words need of one sub-account's coverage (SubaccountCoverage, ./coverage). */
export type SubaccountCompleteness = {
  completeFrom: string | null;
  historyComplete: boolean;
  completeTo: string | null;
};

const count = (n: number) => n.toLocaleString("en-US");
const day = (iso: string) => iso.slice(0, 10);

/**
 * One line for the answer: "Complete for 9,812 of 10,000 sub-accounts over this range; 188 not synced back to
 * 2026-06-01 UTC".
 */
export function coverageText(c: CoverageCounts): string {
  if (c.total === 0) return "No sub-accounts in the registry yet";
  const missing = c.total - c.complete;
  const back = c.from ? `not synced back to ${day(c.from)} UTC` : "not synced in full yet";
  if (c.total === 1) {
    const over = c.from ? "over this range" : "over its whole history";
    return missing === 0
      ? `Complete for this sub-account ${over}`
      : `Not complete for this sub-account ${over}: ${back}`;
  }
  const over = c.from ? "over this range" : "over their whole history";
  if (missing === 0) return `Complete for all ${count(c.total)} sub-accounts ${over}`;
  return `Complete for ${count(c.complete)} of ${count(c.total)} sub-accounts ${over}; ${count(missing)} ${back}`;
}

/** How far back one sub-account's history is complete, in words. */
export function completeBackText(s: SubaccountCompleteness) {
  if (s.completeTo === null) return "Deposit history not synced yet";
  if (s.historyComplete) return "Deposit history complete back to its first record";
  return `Deposit history complete back to ${s.completeFrom!.replace("T", " ").slice(0, 16)} UTC`;
}

/** An incomplete export's first line: what it does not hold, and the first sub-accounts it misses. */
export function exportCoverageNote(
  c: CoverageCounts & { missing: readonly { subUid: string; subaccountName: string | null }[] },
): string {
  const named = c.missing.map((m) => m.subaccountName ?? m.subUid).join(", ");
  const more = c.total - c.complete > c.missing.length ? ", …" : "";
  return `Incomplete: ${coverageText(c)} (${named}${more}); list them at /api/ledger/coverage`;
}

/**
 * What an empty answer says when the ledger does not hold the range completely: "not synced yet", never "no
 * deposits" (null when it does, and the empty answer is the truth).
 */
export function notSyncedText(c: CoverageCounts): string | null {
  if (c.complete === c.total) return null;
  if (c.total === 1)
    return (
      `Not synced yet: the ledger does not hold ${c.from ? "this range" : "the whole history"} ` +
      `of this sub-account's deposits, and has nothing of it so far.`
    );
  return `Not synced yet: nothing in the ledger so far. ${coverageText(c)}.`;
}
