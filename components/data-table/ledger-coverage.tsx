"use client";
// What an answer over the ledger covers (lib/api/ledger/coverage-words): one line above the rows, "complete for
// 9,812 of 10,000 sub-accounts over this range; 188 not synced back to 2026-06-01 UTC", with the first of
// those not covered and how far back each one is complete, and a link to the whole list.
import type { KeyCoverage, LedgerCoverage } from "@/lib/api/ledger/coverage";
import { completeBackText, coverageText } from "@/lib/api/ledger/coverage-words";
import { keyCoverageText } from "@/lib/coverage-words";
import { formatUtc } from "@/lib/format";

export function CoverageNote({ c }: { c: LedgerCoverage }) {
  const missing = c.total - c.complete;
  const list = new URLSearchParams({
    ...(c.from ? { from: String(Date.parse(c.from)) } : {}),
    ...(c.to ? { to: String(Date.parse(c.to)) } : {}),
    limit: "500",
  });
  return (
    <div
      role="status"
      data-testid="ledger-coverage"
      data-complete={missing === 0 ? "true" : "false"}
      className={
        "text-sm " + (missing === 0 ? "text-slate-700 dark:text-slate-300" : "text-amber-800 dark:text-amber-300")
      }
    >
      <p>
        {coverageText(c)}
        {c.currentTo && c.complete > 0
          ? `, each up to its last check (the oldest ${formatUtc(Date.parse(c.currentTo))})`
          : ""}
        .
      </p>
      {missing > 0 && c.missing.length > 0 ? (
        <details className="mt-1">
          <summary className="cursor-pointer">
            Not covered:{" "}
            {missing === c.missing.length
              ? `all ${missing}`
              : `the first ${c.missing.length} of ${missing.toLocaleString("en-US")}`}
          </summary>
          <ul className="mt-1 list-inside list-disc" aria-label="Sub-accounts not covered">
            {c.missing.map((m) => (
              <li key={m.subUid}>
                <a className="underline" href={`/sub-accounts/${encodeURIComponent(m.subUid)}`}>
                  {m.subaccountName ?? m.subUid}
                </a>
                : {completeBackText(m)}
              </li>
            ))}
          </ul>
          <a className="underline" href={`/api/ledger/coverage?${list.toString()}`}>
            The whole list (JSON)
          </a>
        </details>
      ) : null}
    </div>
  );
}

/** What a key's fills or plan orders answer covers of the range asked, one line above the rows. */
export function KeyCoverageNote({ c }: { c: KeyCoverage }) {
  const complete = c.total > 0 && c.complete === c.total;
  return (
    <p
      role="status"
      data-testid="ledger-coverage"
      data-complete={complete ? "true" : "false"}
      className={"text-sm " + (complete ? "text-slate-700 dark:text-slate-300" : "text-amber-800 dark:text-amber-300")}
    >
      {keyCoverageText(c)}.
    </p>
  );
}
