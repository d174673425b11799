// The URL state of /alerts (STYLE rule 10): every filter is sent to the server; the cursors walked.
import { parseAsString, parseAsStringLiteral } from "nuqs";
import { ledgerCursorsParser } from "@/lib/client/paging-search-params";

export const ALERT_SEVERITIES = ["low", "medium", "high"] as const;
export const ALERT_STATUS_VALUES = ["open", "cleared", "closed"] as const;

export const alertsSearchParams = {
  ruleId: parseAsString,
  subUid: parseAsString,
  severity: parseAsStringLiteral(ALERT_SEVERITIES),
  status: parseAsStringLiteral(ALERT_STATUS_VALUES),
  /** Raised at least this many hours ago. */
  olderThanHours: parseAsString,
  /** Only alerts whose case is past its review deadline. */
  overdue: parseAsStringLiteral(["true"] as const),
  p: ledgerCursorsParser,
};
