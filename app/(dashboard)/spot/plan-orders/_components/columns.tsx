import type { PlanOrder } from "@/lib/platform/catalog";
import { dataColumnHelper } from "@/components/data-table/features";
import { decimalColumn } from "@/components/data-table/decimal-cell";
import { idColumn } from "@/components/data-table/copy-button";
import { badgeColumn, sideColumn } from "@/components/data-table/side-column";
import { textColumn } from "@/components/data-table/text-cell";
import { timeColumn } from "@/components/data-table/time";
import { PLAN_ORDER_STATUSES } from "../search-params";
import { planOrderStatusTone } from "./status-tone";

const col = dataColumnHelper<PlanOrder>();

export const planOrderColumns = col.columns([
  col.accessor("orderId", { ...idColumn("orderId", "Order ID", 185), enableHiding: false }),
  col.accessor("clientOid", idColumn("clientOid", "Client order ID", 175, { sortFn: "text" })),
  col.accessor("cTime", timeColumn("Created", 215)),
  col.accessor("side", sideColumn(80)),
  col.accessor("orderType", textColumn("Order type", 115)),
  col.accessor("planType", textColumn("Plan type", 105)),
  col.accessor("triggerType", textColumn("Trigger type", 125)),
  col.accessor("triggerPrice", decimalColumn("Trigger price", 140)),
  col.accessor("executePrice", decimalColumn("Execute price", 140)),
  col.accessor("size", decimalColumn("Size", 130)),
  col.accessor("status", badgeColumn("Status", 130, planOrderStatusTone, PLAN_ORDER_STATUSES)),
  col.accessor("enterPointSource", textColumn("Source", 100)),
]);
