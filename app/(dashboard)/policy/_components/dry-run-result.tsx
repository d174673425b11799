"use client";
// A dry run's answer: the totals that change, then each past withdrawal whose requirement would change
// (what was required, what the draft would require), newest first.
import type { DryRunReply, DryRunRow } from "@/lib/api/policy";
import { counted, groupDecimal } from "@/lib/format";
import { IsoTime } from "@/components/data-table/time";
import { ListTable } from "@/components/ui/list-table";

export function DryRunResult({ run }: { run: DryRunReply }) {
  const t = run.totals;
  const changed = run.rows.filter((r) => r.changed);
  const summary =
    `${counted(t.changed, "withdrawal")} would change: ${t.moreApprovals} would need more approvals, ` +
    `${t.fewerApprovals} fewer, ${t.blocked} would be blocked.`;
  return (
    <section aria-labelledby="dry-run-title" className="mt-4 space-y-2" data-testid="dry-run">
      <h3 id="dry-run-title" className="text-sm font-semibold">
        Dry run over {counted(t.withdrawals, "past withdrawal")}
      </h3>
      <p className="text-sm" data-testid="dry-run-totals">
        {summary}
      </p>
      <ListTable<DryRunRow>
        label="Past withdrawals whose requirement the draft would change"
        frame="box"
        rows={changed}
        rowKey={(r) => r.id}
        rowData={(r) => ({ "data-withdrawal-id": r.id })}
        empty="No past withdrawal would change."
        columns={[
          { header: "Requested", cell: (r) => <IsoTime iso={r.requestedAt} /> },
          {
            header: "Withdrawal",
            cell: (r) => (
              <>
                {groupDecimal(r.amount)} {r.coin} from <span className="font-mono">{r.subUid}</span>
                <span className="block text-xs">
                  {r.valueUsdt === null ? "no price that day" : `${groupDecimal(r.valueUsdt)} USDT`} ·{" "}
                  {r.destination.replace("_", " ")}
                </span>
              </>
            ),
          },
          { header: "Was", cell: (r) => `${r.was.words} (${r.was.rule})` },
          { header: "Would be", cell: (r) => `${r.would.words} (${r.would.rule})` },
        ]}
      />
    </section>
  );
}
