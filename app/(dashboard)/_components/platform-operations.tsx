import { catalog } from "@/lib/platform/catalog";
import { ScrollArea } from "@/components/ui/panel";
import { TableHead } from "@/components/ui/table-head";

/** The eleven operations and their limits, generated from the catalog; folded, since it is reference. */
export function PlatformOperations() {
  const ops = Object.values(catalog);
  return (
    <details className="group rounded-lg border border-slate-200 dark:border-slate-700">
      <summary className="cursor-pointer rounded-lg px-4 py-3 text-sm font-semibold hover:bg-slate-50 dark:hover:bg-slate-900">
        About: the platform operations Brokerdesk uses
      </summary>
      <div className="border-t border-slate-200 px-4 pt-3 pb-4 dark:border-slate-700">
        <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
          The back office of the broker&apos;s ND main account: sub-accounts, assets, withdrawals, rebates, risk units,
          leverage and market data, through the platform&apos;s signed API.
        </p>
        <ScrollArea label="Platform operations table">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">The eleven platform operations Brokerdesk uses, with their limits</caption>
            <TableHead
              className="bg-slate-50 text-xs text-slate-700 dark:bg-slate-900 dark:text-slate-300"
              cell="px-3 py-2"
              columns={["Code", "Operation", "Request", "Rate limit", "Permission"]}
            />
            <tbody>
              {ops.map((op) => (
                <tr key={op.id} className="border-t border-slate-200 dark:border-slate-700">
                  <td className="px-3 py-2 font-mono">{op.code}</td>
                  <td className="px-3 py-2">
                    {op.title} <span className="font-mono text-xs text-slate-600 dark:text-slate-400">{op.id}</span>
                  </td>
                  <td className="px-3 py-2 font-mono text-xs">
                    {op.method} {op.path}
                  </td>
                  <td className="tabular px-3 py-2">
                    {op.rateLimit.count}/s per {op.rateLimit.scope === "uid" ? "UID" : "IP"}
                  </td>
                  <td className="px-3 py-2 font-mono text-xs">{op.permission}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      </div>
    </details>
  );
}
