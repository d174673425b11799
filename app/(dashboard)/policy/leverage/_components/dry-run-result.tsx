"use client";
// A leverage dry run's answer: how many changes were read, and for each rule of the draft what it would have
// caught (refused, or sent to a second lead), with the first of those changes listed, newest first.
import type { LeverageDryRunReply, LeverageDryRunRow } from "@/lib/api/leverage-policy";
import { counted } from "@/lib/format";
import { IsoTime } from "@/components/data-table/time";
import { ListTable } from "@/components/ui/list-table";

const VERDICT_WORDS: Record<LeverageDryRunRow["verdict"], string> = {
  refuse: "refused",
  "second-lead": "second lead",
};

export function LeverageDryRunResult({ run }: { run: LeverageDryRunReply }) {
  return (
    <section aria-labelledby="leverage-dry-run-title" className="mt-4 space-y-3" data-testid="leverage-dry-run">
      <h3 id="leverage-dry-run-title" className="text-sm font-semibold">
        Dry run over the last {counted(run.days, "day")}
      </h3>
      <p className="text-sm" data-testid="leverage-dry-run-read">
        {counted(run.read, "leverage change")} read from the audit log ({run.from.slice(0, 10)} to {run.to.slice(0, 10)}
        ){run.truncated ? ", the newest only: there were more" : ""}; {run.unmatched} taken by no rule.
      </p>
      {run.rules.map((rule) => (
        <div key={rule.index} className="space-y-1" data-testid="leverage-dry-run-rule" data-rule={rule.index + 1}>
          <p className="text-sm">
            <span className="font-medium">
              Rule {rule.index + 1} “{rule.name}”
            </span>
            : decides {counted(rule.decided, "change")}, would have caught {rule.caughtCount} ({rule.refused} refused,{" "}
            {rule.secondLead} for a second lead)
            {rule.caughtCount > rule.caught.length ? `; the first ${rule.caught.length} listed` : ""}.
          </p>
          {rule.caught.length ? (
            <ListTable<LeverageDryRunRow>
              label={`Changes rule ${rule.index + 1} would have caught`}
              frame="box"
              rows={rule.caught}
              rowKey={(r) => r.id}
              rowData={(r) => ({ "data-change-id": r.id, "data-verdict": r.verdict })}
              empty="None."
              columns={[
                { header: "Asked", cell: (r) => <IsoTime iso={r.at} /> },
                { header: "By", cell: (r) => r.actor },
                { header: "Account", cell: (r) => <span className="font-mono">{r.account}</span> },
                { header: "Contract", cell: (r) => `${r.symbol} (${r.productType})` },
                { header: "Leverage", cell: (r) => `${r.leverage}×` },
                { header: "Targets", cell: (r) => (r.planId ? `${r.targets} (plan)` : "1") },
                { header: "Then", cell: (r) => r.outcome },
                { header: "Would be", cell: (r) => VERDICT_WORDS[r.verdict] },
              ]}
            />
          ) : null}
        </div>
      ))}
    </section>
  );
}
