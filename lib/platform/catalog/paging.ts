// How each paged operation pages (E1, E3, E4, E8): the catalog's entries take it from here
// (`paging: OPERATION_PAGING[id]`) and the browser walks pages with it, without the catalog's schemas; apart
// from ./operations so that a page calling an operation that does not page loads none of it.
// No zod here, nor anything that builds a schema.
import type { Paging } from "../define-endpoint";
import { DAY_MS, THREE_MONTHS_MS } from "../windows";
import type { DepositRecord } from "./deposits";
import type { Fill, MarketTrade, PlanOrder, PlanOrderPage } from "./spot";

const NINETY_DAYS = 90 * DAY_MS;
const SEVEN_DAYS = 7 * DAY_MS;

/**
 * A page that is an array of rows, oldest last: the next cursor is the last row's id, and there is one only
 * when the page came back full (a shorter page is the last). E1 (after the catalog normalises `data` to an
 * array), E4 and E8 page this way.
 */
function lastRowPaging<Row>(
  idField: keyof Row & string,
  timeField: keyof Row & string,
  what: string,
  rest: Pick<Paging<Row[], Row>, "limit" | "maxSpanMs" | "retentionMs">,
): Paging<Row[], Row> {
  const rowId = (r: Row) => String(r[idField]);
  return {
    cursorParam: "idLessThan",
    cursorFrom: `${idField} of the last (oldest) ${what}`,
    nextCursor: (rows, limit) => {
      const last = rows.at(-1);
      return rows.length >= limit && last ? rowId(last) : null;
    },
    rows: (rows) => rows,
    rowId,
    rowTime: (r) => String(r[timeField]),
    ...rest,
  };
}

const depositsPaging = lastRowPaging<DepositRecord>("orderId", "cTime", "record", {
  limit: { default: 20, max: 100 },
  maxSpanMs: THREE_MONTHS_MS,
  retentionMs: null,
});

/** E3 says itself where the next page starts. */
const planOrdersPaging: Paging<PlanOrderPage, PlanOrder> = {
  cursorParam: "idLessThan",
  cursorFrom: "idLessThan of the response, while nextFlag is true",
  nextCursor: (d) => (d.nextFlag && d.idLessThan ? d.idLessThan : null),
  rows: (d) => d.orderList,
  rowId: (r) => r.orderId,
  rowTime: (r) => r.cTime,
  limit: { default: 100, max: 100 },
  maxSpanMs: NINETY_DAYS,
  retentionMs: null,
};

const fillsPaging = lastRowPaging<Fill>("tradeId", "cTime", "fill", {
  limit: { default: 100, max: 100 },
  maxSpanMs: NINETY_DAYS,
  retentionMs: NINETY_DAYS,
});

const marketTradesPaging = lastRowPaging<MarketTrade>("tradeId", "ts", "trade", {
  limit: { default: 500, max: 1000 },
  maxSpanMs: SEVEN_DAYS,
  retentionMs: NINETY_DAYS,
});

/** How each paged operation pages; the others do not page. */
export const OPERATION_PAGING = {
  "deposits.list": depositsPaging,
  "planOrders.history": planOrdersPaging,
  "fills.list": fillsPaging,
  "market.trades": marketTradesPaging,
} as const;
