// The URL state of /deposits (STYLE rule 10): declared once, read by the page's client component.
import { parseAsString, parseAsStringLiteral } from "nuqs";
import { pagedViewParsers } from "@/lib/client/paging-search-params";
import type { RangePreset } from "@/lib/client/paging";

export const DEPOSIT_PAGE_SIZES = [20, 50, 100] as const;
export const DEPOSIT_RANGE_PRESETS: readonly RangePreset[] = ["24h", "7d", "30d", "90d"];
export const DEPOSIT_STATUSES = ["success", "pending", "fail"] as const;

export const depositsSearchParams = {
  /** Look up by sub-account (default) or by the record's orderId. */
  by: parseAsStringLiteral(["uid", "order"] as const).withDefault("uid"),
  /** Absent = the first known sub-account. */
  uid: parseAsString,
  orderId: parseAsString,
  ...pagedViewParsers({ limit: 50, range: "7d" }),
  // Filters on the loaded rows (column meta); E1 has no coin or status parameter.
  coin: parseAsString,
  status: parseAsString,
  /** The chart: deposits per day by count (absent) or by amount of this coin. */
  chart: parseAsString,
};
