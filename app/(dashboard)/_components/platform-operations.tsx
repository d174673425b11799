import { OPERATIONS } from "@/lib/platform/catalog/operations";
import { ScrollArea } from "@/components/ui/panel";
import { ListTable, type ListColumn } from "@/components/ui/list-table";

type Operation = (typeof OPERATIONS)[keyof typeof OPERATIONS];

const COLUMNS: ListColumn<Operation>[] = [
  { header: "Code", className: "font-mono", cell: (op) => op.code },
  {
    header: "Operation",
    cell: (op) => (
      <>
        {op.title} <span className="font-mono text-xs text-slate-600 dark:text-slate-400">{op.id}</span>
      </>
    ),
  },
  { header: "Request", className: "font-mono text-xs", cell: (op) => `${op.method} ${op.path}` },
  {
    header: "Rate limit",
    className: "tabular",
    cell: (op) => `${op.rateLimit.count}/s per ${op.rateLimit.scope === "uid" ? "UID" : "IP"}`,
  },
  { header: "Permission", className: "font-mono text-xs", cell: (op) => op.permission },
];

/**
 * The eleven operations and their limits, generated from the catalog's table of operations; folded, since it is
 * reference.
 */
export function PlatformOperations() {
  return (
    <details className="group rounded-lg border border-slate-200 dark:border-slate-700">
      <summary
        className={
          "cursor-pointer rounded-lg px-4 py-3 text-sm " + "font-semibold hover:bg-slate-50 dark:hover:bg-slate-900"
        }
      >
        About: the platform operations Brokerdesk uses
      </summary>
      <div className="border-t border-slate-200 px-4 pt-3 pb-4 dark:border-slate-700">
        <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
          The back office of the broker&apos;s ND main account: sub-accounts, assets, withdrawals, rebates, risk units,
          leverage and market data, through the platform&apos;s signed API.
        </p>
        <ScrollArea label="Platform operations table">
          <ListTable
            label="The eleven platform operations Brokerdesk uses, with their limits"
            frame="none"
            columns={COLUMNS}
            rows={Object.values(OPERATIONS)}
            rowKey={(op) => op.id}
          />
        </ScrollArea>
      </div>
    </details>
  );
}
