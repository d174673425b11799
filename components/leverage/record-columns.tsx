// The leverage record's columns, on /leverage and on a sub-account's page: what each account, symbol and margin
// mode was last set to through Brokerdesk (E10's answer), who set it, when (UTC unless the person chose local
// time) and why.
import Link from "next/link";
import type { LeverageRecordRow } from "@/lib/api/leverage/record";
import { dataColumnHelper } from "@/components/data-table/features";
import { column } from "@/components/data-table/column-builders";
import { textColumn } from "@/components/data-table/text-cell";
import { TimeCell } from "@/components/data-table/time";

const col = dataColumnHelper<LeverageRecordRow>();

/** The key the change was signed with, in words: the main account, or the sub-account (a link to its page). */
function AccountCell({ r }: { r: LeverageRecordRow }) {
  if (r.subUid === null) return <span>main account</span>;
  return (
    <Link href={`/sub-accounts/${r.subUid}`} className="text-blue-800 underline dark:text-blue-300">
      {r.subUid}
    </Link>
  );
}

/** What the platform's answer says per side: cross in crossed margin, long / short in isolated. */
const sides = (r: LeverageRecordRow) =>
  r.marginMode === "crossed" ? `cross ${r.crossLeverage}×` : `long ${r.longLeverage}× / short ${r.shortLeverage}×`;

export const leverageRecordColumns = col.columns([
  col.accessor("setAt", {
    ...column("Set", 205, { time: true }),
    cell: (c) => <TimeCell ms={String(Date.parse(c.getValue()))} />,
  }),
  col.accessor("account", { ...column("Account", 130), cell: (c) => <AccountCell r={c.row.original} /> }),
  col.accessor("symbol", textColumn("Symbol", 110)),
  col.accessor("productType", textColumn("Product type", 130, 3)),
  col.accessor("leverage", {
    ...column("Leverage", 90, { numeric: true }),
    cell: (c) => (c.getValue() ? `${c.getValue()}×` : "—"),
  }),
  col.accessor((r) => sides(r), { id: "answer", ...column("Platform's answer", 190, { priority: 2 }) }),
  col.accessor("marginMode", textColumn("Margin mode", 110, 3)),
  col.accessor("marginCoin", textColumn("Margin coin", 100, 3)),
  col.accessor("requested", textColumn("Asked", 70, 3)),
  col.accessor("setBy", textColumn("Set by", 190)),
  col.accessor("reason", {
    ...column("Why", 200),
    cell: (c) => (
      <span className="truncate" title={c.getValue()}>
        {c.getValue() || "—"}
      </span>
    ),
  }),
  col.accessor("planId", textColumn("Plan", 120, 3)),
]);
