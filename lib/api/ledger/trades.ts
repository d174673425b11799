// The ledger's fills (E4) and plan orders (E3) of a configured key: what the platform showed
// the sync, kept past its 90 days, filtered in the database over any range, keyset paged newest first,
// with the exact count of the filtered set. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { blankless, nextCursorField, orderedRange, rangeAndPage } from "../query-fields";
import { keyCoverageSchema } from "./coverage";

const symbol = blankless(
  z.pipe(
    z.string().check(z.regex(/^[A-Za-z0-9]{2,30}$/, { error: "symbol is letters and digits" })),
    z.transform((s) => s.toUpperCase()),
  ),
);
const side = blankless(z.enum(["buy", "sell"], { error: "side is buy or sell" }));
const id = (field: string) => blankless(z.string().check(z.regex(/^\d{1,32}$/, { error: `${field} is digits` })));

const common = {
  /** The configured key whose records these are; the main account's when left out. */
  key: blankless(
    z
      .string()
      .check(z.regex(/^[a-z0-9]{1,40}$/, { error: "key is a configured key's name (lower-case letters and digits)" })),
  ),
  symbol,
  side,
  ...rangeAndPage,
};

export const ledgerFillFiltersSchema = z
  .object({
    ...common,
    orderId: id("orderId"),
    tradeScope: blankless(z.enum(["taker", "maker"], { error: "tradeScope is taker or maker" })),
  })
  .check(orderedRange());
export type LedgerFillFilters = z.output<typeof ledgerFillFiltersSchema>;

export const ledgerPlanOrderFiltersSchema = z
  .object({
    ...common,
    orderId: id("orderId"),
    status: blankless(
      z.string().check(z.regex(/^[a-z_]{1,32}$/, { error: "status is a plan order's status, e.g. executed" })),
    ),
  })
  .check(orderedRange());
export type LedgerPlanOrderFilters = z.output<typeof ledgerPlanOrderFiltersSchema>;

/** Decimals travel as strings; null where the platform sent nothing. */
const decimal = z.nullable(z.string());

export const ledgerFillSchema = z.object({
  tradeId: z.string(),
  orderId: z.string(),
  symbol: z.string(),
  orderType: z.string(),
  side: z.string(),
  priceAvg: decimal,
  size: decimal,
  amount: decimal,
  feeCoin: z.string(),
  totalFee: decimal,
  tradeScope: z.string(),
  /** The platform's creation time, ms, as a string. */
  cTime: z.string(),
});
export type LedgerFill = z.output<typeof ledgerFillSchema>;

export const ledgerPlanOrderSchema = z.object({
  orderId: z.string(),
  clientOid: z.string(),
  symbol: z.string(),
  side: z.string(),
  orderType: z.string(),
  planType: z.string(),
  triggerType: z.string(),
  triggerPrice: decimal,
  executePrice: decimal,
  size: decimal,
  status: z.string(),
  /** How many statuses the ledger has seen this order in (more than one: it changed while kept). */
  statusesSeen: z.number(),
  cTime: z.string(),
  uTime: z.nullable(z.string()),
});
export type LedgerPlanOrder = z.output<typeof ledgerPlanOrderSchema>;

/** Where the key's sync of this list stands: when it last succeeded, and whether its history is all in. */
export const ledgerKeySyncSchema = z.object({
  key: z.string(),
  lastSuccessAt: z.nullable(z.string()),
  backfillDone: z.boolean(),
  failing: z.boolean(),
});
export type LedgerKeySync = z.output<typeof ledgerKeySyncSchema>;

const pageOf = <S extends z.ZodMiniType>(row: S) =>
  z.object({
    rows: z.array(row),
    nextCursor: nextCursorField,
    total: z.number(),
    sync: ledgerKeySyncSchema,
    /** What the ledger holds completely of the range asked: an empty page of an incomplete one is "not synced". */
    coverage: keyCoverageSchema,
  });

export const ledgerFillPageSchema = pageOf(ledgerFillSchema);
export type LedgerFillPage = z.output<typeof ledgerFillPageSchema>;
export const ledgerPlanOrderPageSchema = pageOf(ledgerPlanOrderSchema);
export type LedgerPlanOrderPage = z.output<typeof ledgerPlanOrderPageSchema>;

export const ledgerTradeResources = {
  fills: defineResource({
    id: "ledger.fills",
    method: "GET",
    path: "/api/ledger/fills",
    summary:
      "Fills of a configured key from Brokerdesk's ledger (kept past the platform's 90 days): filtered over " +
      "any range, exact count",
    permission: "fills.read",
    input: ledgerFillFiltersSchema,
    output: ledgerFillPageSchema,
    errors: [],
  }),
  planOrders: defineResource({
    id: "ledger.plan-orders",
    method: "GET",
    path: "/api/ledger/plan-orders",
    summary:
      "Plan orders of a configured key from Brokerdesk's ledger, with the statuses seen: filtered over any " +
      "range, exact count",
    permission: "planOrders.read",
    input: ledgerPlanOrderFiltersSchema,
    output: ledgerPlanOrderPageSchema,
    errors: [],
  }),
} as const;
