import type { DepositRecord } from "@/lib/platform/catalog";
import { dataColumnHelper } from "@/components/data-table/features";
import { choiceColumn } from "@/components/data-table/column-builders";
import { badgeColumn } from "@/components/data-table/side-column";
import { decimalColumn } from "@/components/data-table/decimal-cell";
import { idColumn } from "@/components/data-table/copy-button";
import { textColumn } from "@/components/data-table/text-cell";
import { timeColumn } from "@/components/data-table/time";
import { DEPOSIT_STATUSES } from "../search-params";
import { depositTone } from "./deposit-tone";

const col = dataColumnHelper<DepositRecord>();

export const depositColumns = col.columns([
  col.accessor("orderId", { ...idColumn("orderId", "Record ID", 200), enableHiding: false }),
  col.accessor("cTime", timeColumn("Time", 230)),
  col.accessor("userId", idColumn("userId", "Sub-account UID", 150, { priority: 2 })),
  col.accessor("coin", choiceColumn("Coin", 80)),
  col.accessor("amount", decimalColumn("Amount", 160)),
  col.accessor("fee", decimalColumn("Fee", 100, 3)),
  col.accessor("chain", textColumn("Chain", 110, 3)),
  col.accessor("dest", textColumn("Destination", 140, 3)),
  col.accessor("status", badgeColumn("Status", 100, depositTone, DEPOSIT_STATUSES)),
  col.accessor("txId", idColumn("txId", "Transaction ID", 200, { sortFn: "text" })),
  col.accessor("fromAddress", idColumn("fromAddress", "From", 180, { sortFn: "text", priority: 3 })),
  col.accessor("toAddress", idColumn("toAddress", "To", 180, { sortFn: "text", priority: 3 })),
]);
