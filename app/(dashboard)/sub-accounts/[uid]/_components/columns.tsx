import Link from "next/link";
import type { AssetEntry } from "@/lib/platform/catalog";
import { STATE_LABELS, STATE_TONES } from "@/lib/withdrawal-states";
import { Badge } from "@/components/ui/badge";
import { dataColumnHelper } from "@/components/data-table/features";
import { IdCell } from "@/components/data-table/copy-button";
import { TimeCell } from "@/components/data-table/time";
import { DecimalCell } from "@/components/data-table/decimal-cell";
import type { WithdrawalView } from "@/lib/api/withdrawals/ledger";

const asset = dataColumnHelper<AssetEntry>();
export const assetColumns = asset.columns([
  asset.accessor("coin", { header: "Coin", meta: { label: "Coin", width: 90 }, sortFn: "text", enableHiding: false }),
  asset.accessor("available", {
    header: "Available",
    meta: { label: "Available", numeric: true, width: 170 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
  asset.accessor("frozen", {
    header: "Frozen",
    meta: { label: "Frozen", numeric: true, width: 150 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
  asset.accessor("locked", {
    header: "Locked",
    meta: { label: "Locked", numeric: true, width: 150 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
  asset.accessor("uTime", {
    header: "Updated",
    meta: { time: true, label: "Updated", width: 210 },
    sortFn: "decimal",
    cell: (c) => <TimeCell ms={c.getValue()} />,
  }),
]);

const withdrawal = dataColumnHelper<WithdrawalView>();
export const withdrawalColumns = withdrawal.columns([
  // The time opens the withdrawal's own page, as in the ledger.
  withdrawal.accessor((r) => String(Date.parse(r.requestedAt)), {
    id: "requestedAt",
    header: "Requested",
    meta: { time: true, label: "Requested", width: 210 },
    sortFn: "decimal",
    cell: (c) => (
      <Link
        href={`/withdrawals/${c.row.original.id}`}
        className="text-blue-800 underline dark:text-blue-300"
        aria-label={`Open withdrawal ${c.row.original.id}`}
      >
        <TimeCell ms={c.getValue()} />
      </Link>
    ),
  }),
  withdrawal.accessor("coin", { header: "Coin", meta: { label: "Coin", width: 80 }, sortFn: "text" }),
  withdrawal.accessor("amount", {
    header: "Amount",
    meta: { label: "Amount", numeric: true, width: 150 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
  // In words, as everywhere else ("confirmed" is only the stored name: the platform accepted the order).
  withdrawal.accessor("state", {
    header: "State",
    meta: { label: "State", width: 215 },
    sortFn: "text",
    cell: (c) => <Badge tone={STATE_TONES[c.getValue()]}>{STATE_LABELS[c.getValue()]}</Badge>,
  }),
  withdrawal.accessor("requestedBy", {
    header: "Requested by",
    meta: { label: "Requested by", width: 200 },
    sortFn: "text",
  }),
  withdrawal.accessor((r) => r.platformOrderId ?? "", {
    id: "platformOrderId",
    header: "Platform order ID",
    meta: { label: "Platform order ID", width: 180 },
    sortFn: "text",
    cell: (c) => <IdCell field="platform order ID" value={c.getValue()} />,
  }),
]);
