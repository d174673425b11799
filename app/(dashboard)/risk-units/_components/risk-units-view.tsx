"use client";
import dynamic from "next/dynamic";
import { useState } from "react";
import { useQueryStates } from "nuqs";
import { WholeListTable } from "@/components/data-table/whole-list-table";
import { useDataTable } from "@/components/data-table/use-data-table";
import { filteringTableFeatures } from "@/components/data-table/features-filtering";
import { MAX_UIDS_PER_RISK_UNIT } from "@/lib/platform/values";
import { riskUnitsSearchParams } from "../search-params";
import { BINDINGS_KEY, type Binding } from "./api";
import { FormLoading } from "@/components/ui/form-loading";
import { LineSkeleton } from "@/components/ui/skeleton";
import { boundCounts, noneBoundText } from "./binding-counts";
import { UnbindRowContext, bindingColumns } from "./columns";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { riskUnitsRoutes } from "@/lib/api/risk-units/routes";

// The forms (react-hook-form, the E9 schema, the type-to-confirm dialog) load right after the page rather
// than with it, and only for roles that may write (page weight).
const BindingForm = dynamic(() => import("./binding-form").then((m) => m.BindingForm), {
  ssr: false,
  loading: () => <FormLoading title="Bind or unbind a UID" height={298} />,
});

const EMPTY: Binding[] = [];

export function RiskUnitsView({ canWrite }: { canWrite: boolean }) {
  const [q, setQ] = useQueryStates(riskUnitsSearchParams);
  const bindings = useResourceQuery(riskUnitsRoutes.list, {}, { queryKey: BINDINGS_KEY });
  const table = useDataTable({
    features: filteringTableFeatures,
    data: bindings.data?.items ?? EMPTY,
    columns: bindingColumns,
    getRowId: (b) => b.id,
    url: [q, setQ],
  });
  const items = bindings.data?.items;
  const counts = items ? [...boundCounts(items)].sort(([a], [b]) => a.localeCompare(b)) : [];
  // A row's Unbind… fills the unbind form and opens its confirmation (a new object each time, so a second
  // click on the same row opens it again).
  const [unbindRow, setUnbindRow] = useState<{ binding: Binding } | null>(null);

  return (
    <div className="space-y-6">
      {canWrite ? (
        <div className="grid gap-4 md:grid-cols-2">
          <BindingForm operate="bind" bindings={items} boundElsewhere={bindings.data?.boundElsewhere} />
          <BindingForm operate="unbind" bindings={items} preset={unbindRow} />
        </div>
      ) : (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          You can read the bindings; binding and unbinding need the riskUnits.write permission (brokers and team leads).
        </p>
      )}

      <section aria-labelledby="risk-unit-counts" className="space-y-2">
        <h2 id="risk-unit-counts" className="text-base font-semibold">
          Bound UIDs per risk unit
        </h2>
        {!items ? <LineSkeleton label="Counting the bound UIDs" /> : null}
        {items && counts.length === 0 ? (
          <p className="text-sm text-slate-700 dark:text-slate-300">{noneBoundText(items)}</p>
        ) : null}
        {counts.length ? (
          <ul className="flex flex-wrap gap-2">
            {counts.map(([unit, n]) => (
              <li
                key={unit}
                data-testid={`unit-count-${unit}`}
                className={
                  "rounded-md border px-3 py-1.5 text-sm " +
                  (n >= MAX_UIDS_PER_RISK_UNIT
                    ? "border-amber-400 bg-amber-50 text-amber-950 " +
                      "dark:border-amber-600 dark:bg-amber-950 dark:text-amber-100"
                    : "border-slate-200 dark:border-slate-700")
                }
              >
                Risk unit <span className="font-mono">{unit}</span>:{" "}
                <span className="tabular font-semibold">
                  {n} / {MAX_UIDS_PER_RISK_UNIT}
                </span>
                {n >= MAX_UIDS_PER_RISK_UNIT ? " (full)" : ""}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Counted from bindings made through Brokerdesk; UIDs bound elsewhere are known only to the platform.
        </p>
      </section>

      <UnbindRowContext value={canWrite ? (binding) => setUnbindRow({ binding }) : null}>
        <WholeListTable
          table={table}
          label="Risk-unit bindings made through Brokerdesk"
          query={bindings}
          maxHeight="min(60vh, 560px)"
          empty="No bindings have been made through Brokerdesk."
          count={`${table.getRowModel().rows.length} of ${items?.length ?? 0} bindings shown, newest first.`}
        />
      </UnbindRowContext>
    </div>
  );
}
