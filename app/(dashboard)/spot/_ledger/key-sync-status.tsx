"use client";
// Where the ledger's sync of a key's fills or plan orders stands, said above the list, with the way to the
// platform's live answer for what the ledger may not have yet.
import Link from "next/link";
import type { LedgerKeySync } from "@/lib/api/ledger/trades";
import { formatUtc } from "@/lib/format";

export function KeySyncStatus({
  sync,
  what,
  livePath,
}: {
  sync: LedgerKeySync | undefined;
  what: string;
  livePath: string;
}) {
  return (
    <p role="status" className="text-sm text-slate-700 dark:text-slate-300" data-testid="ledger-freshness">
      From Brokerdesk&apos;s ledger, kept past the platform&apos;s 90 days: {what} of key &ldquo;{sync?.key ?? "main"}
      &rdquo;
      {sync?.lastSuccessAt
        ? `, every symbol synced since ${formatUtc(Date.parse(sync.lastSuccessAt))}`
        : ", not synced yet"}
      {sync && sync.lastSuccessAt && !sync.backfillDone ? "; history still being backfilled" : ""}
      {sync?.failing ? "; the last sync failed (retried)" : ""}. The newest records can be seen{" "}
      <Link href={livePath} className="underline">
        live from the platform
      </Link>
      .
    </p>
  );
}
