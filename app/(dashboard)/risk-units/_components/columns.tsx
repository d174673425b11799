import { dataColumnHelper } from "@/components/data-table/features";
import { IdCell } from "@/components/data-table/copy-button";
import { timeColumn } from "@/components/data-table/time";
import { choiceColumn } from "@/components/data-table/column-builders";
import { badgeColumn } from "@/components/data-table/side-column";
import { textColumn } from "@/components/data-table/text-cell";
import { createContext, useContext } from "react";
import { useSubAccountName } from "@/lib/client/sub-account-names";
import type { Binding } from "./api";

/** What a row's Unbind button does (set by the view for roles that may write; null hides the button). */
export const UnbindRowContext = createContext<((b: Binding) => void) | null>(null);

function UnbindButton({ binding }: { binding: Binding }) {
  const unbind = useContext(UnbindRowContext);
  if (!unbind || binding.state !== "bound") return null;
  return (
    <button
      type="button"
      onClick={() => unbind(binding)}
      aria-label={`Unbind UID ${binding.uid} from risk unit ${binding.riskUnitId}`}
      className={
        "rounded px-1.5 py-0.5 text-xs font-semibold text-red-800 underline-offset-2 hover:underline " +
        "dark:text-red-300"
      }
    >
      Unbind…
    </button>
  );
}

/** The UID with the sub-account's name from the registry beside it. */
export function UidCell({ uid }: { uid: string }) {
  const name = useSubAccountName(uid);
  return (
    <span className="flex min-w-0 items-center gap-1">
      {/* The UID whole; the name gives way. */}
      <span className="shrink-0">
        <IdCell field="UID" value={uid} />
      </span>
      {name ? <span className="truncate text-xs text-slate-600 dark:text-slate-400">{name}</span> : null}
    </span>
  );
}

const col = dataColumnHelper<Binding>();
// Brokerdesk keeps ISO times; the shared time cell reads the platform's ms strings.
const ms = (iso: string | null) => (iso ? String(Date.parse(iso)) : "");

export const bindingColumns = col.columns([
  col.display({
    id: "actions",
    header: "Actions",
    meta: { label: "Actions", width: 90 },
    enableHiding: false,
    cell: (c) => <UnbindButton binding={c.row.original} />,
  }),
  col.accessor("uid", {
    header: "UID",
    meta: { label: "UID", width: 260, filter: { kind: "text", placeholder: "UID" } },
    filterFn: "includesString",
    sortFn: "decimal",
    enableHiding: false,
    cell: (c) => <UidCell uid={c.getValue()} />,
  }),
  col.accessor("riskUnitId", {
    ...choiceColumn("Risk unit", 145),
    sortFn: "decimal",
    cell: (c) => <IdCell field="Risk unit" value={c.getValue()} />,
  }),
  col.accessor(
    "state",
    badgeColumn("State", 95, (v) => (v === "bound" ? "ok" : "neutral"), ["bound", "unbound"]),
  ),
  col.accessor("boundBy", { header: "Bound by", meta: { label: "Bound by", width: 195 }, sortFn: "text" }),
  col.accessor((b: Binding) => ms(b.boundAt), { id: "boundAt", ...timeColumn("Bound at", 215) }),
  col.accessor((b: Binding) => b.unboundBy ?? "", { id: "unboundBy", ...textColumn("Unbound by", 195) }),
  col.accessor((b: Binding) => ms(b.unboundAt), { id: "unboundAt", ...timeColumn("Unbound at", 215) }),
]);
