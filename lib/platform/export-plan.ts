// An export's plan: which paged operations can be exported, and the check of a request that turns it into
// time windows of the operation's maximum span. Pure, over the catalog, so the route's input schema, the
// server's run and a form can all use it. Isomorphic.
import { catalog } from "@/lib/platform/catalog";
import type { Paging } from "@/lib/platform/define-endpoint";
import { isMsTimestamp } from "@/lib/platform/schemas";
import { exportFileName } from "@/lib/csv";
import { retentionProblem, splitRange, type TimeWindow } from "@/lib/platform/windows";

/** The paged operations an export can walk (the catalog's operations whose `paging` is set). */
export const EXPORTABLE_OPERATIONS = ["deposits.list", "planOrders.history", "fills.list", "market.trades"] as const;
export type ExportableOperation = (typeof EXPORTABLE_OPERATIONS)[number];

export function isExportableOperation(value: unknown): value is ExportableOperation {
  return typeof value === "string" && (EXPORTABLE_OPERATIONS as readonly string[]).includes(value);
}

type AnyPaging = Paging<unknown, unknown>;

export type ExportPlan = {
  operation: ExportableOperation;
  paging: AnyPaging;
  /** The operation's parameters other than the range and the paging ones. */
  base: Record<string, string>;
  start: number;
  end: number;
  windows: TimeWindow[];
  filename: string;
};

/** Chosen by the export itself, never by the caller. */
const RESERVED_PARAMS = ["idLessThan", "limit"] as const;

/** The first word of an export's file name. */
export const EXPORT_KINDS: Readonly<Record<ExportableOperation, string>> = {
  "deposits.list": "deposits",
  "planOrders.history": "plan-orders",
  "fills.list": "fills",
  "market.trades": "trades",
};

/** Whose records an export holds, as its parameters say (the run puts a sub-account's name for its UID). */
export function exportSubject(operation: ExportableOperation, params: Record<string, string>, key?: string): string {
  if (operation === "deposits.list") return params.userId ?? (params.orderId ? `order-${params.orderId}` : "all");
  const symbol = params.symbol ?? "all";
  return key && key !== "main" ? `${key}-${symbol}` : symbol;
}

/**
 * Checks an export request; returns field → message (the operation's own parameter names, so a form
 * can show them on its fields) or the plan. The span may exceed the operation's maximum (it is split),
 * so the operation's schema is checked on the newest window rather than the whole range.
 */
export function checkExport(
  operation: unknown,
  params: Record<string, string>,
  opts: { key?: string; keyNames?: readonly string[]; now?: number } = {},
): { ok: true; plan: ExportPlan } | { ok: false; fieldErrors: Record<string, string> } {
  if (!isExportableOperation(operation)) {
    return { ok: false, fieldErrors: { operation: `operation must be one of ${EXPORTABLE_OPERATIONS.join(", ")}` } };
  }
  const op = catalog[operation];
  if (!op.paging) return { ok: false, fieldErrors: { operation: `${operation} is not paged` } };
  const paging = op.paging as unknown as AnyPaging;
  const errors: Record<string, string> = {};
  for (const p of RESERVED_PARAMS)
    if (params[p] !== undefined) errors[p] = `${p} is chosen by the export; leave it out`;
  for (const p of ["startTime", "endTime"] as const) {
    if (!params[p]) errors[p] = `${p} is required for an export`;
    else if (!isMsTimestamp(params[p])) errors[p] = `${p} must be a Unix millisecond timestamp`;
  }
  if (opts.key !== undefined && opts.key !== "main") {
    if (!("keySelectable" in op && op.keySelectable)) errors.key = `${operation} always uses the main account's key`;
    else if (opts.keyNames && !opts.keyNames.includes(opts.key))
      errors.key = `No platform key named "${opts.key}" is configured`;
  }
  if (Object.keys(errors).length) return { ok: false, fieldErrors: errors };

  const start = Number(params.startTime);
  const end = Number(params.endTime);
  if (end < start) return { ok: false, fieldErrors: { endTime: "endTime must not be before startTime" } };
  const retention = retentionProblem(start, paging, opts.now);
  if (retention) return { ok: false, fieldErrors: { startTime: retention } };

  const newest = {
    startTime: String(paging.maxSpanMs === null ? start : Math.max(start, end - paging.maxSpanMs)),
    endTime: String(end),
  };
  const parsed = op.request.safeParse({ ...params, ...newest });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "params")] ??= issue.message;
    return { ok: false, fieldErrors: errors };
  }
  const base = Object.fromEntries(Object.entries(params).filter(([k]) => k !== "startTime" && k !== "endTime"));
  return {
    ok: true,
    plan: {
      operation,
      paging,
      base,
      start,
      end,
      windows: splitRange(start, end, paging.maxSpanMs),
      filename: exportFileName(EXPORT_KINDS[operation], exportSubject(operation, params, opts.key), start, end),
    },
  };
}
