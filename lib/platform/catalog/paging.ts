// How each paged operation pages (E1, E3, E4, E8): the catalog's entries take it from here
// (`paging: OPERATION_PAGING[id]`) and the browser walks pages with it, without the catalog's schemas; apart
// from ./operations so that a page calling an operation that does not page loads none of it.
// No zod here, nor anything that builds a schema. Rows are typed by what paging reads of them (an id, a time),
// not by the operations' row types: those are built from schemas in the files that take their paging from here,
// and naming them would make the two import each other. Each entry declares its paging with its own row type.
import type { Paging } from "../define-endpoint";
import { DAY_MS, THREE_MONTHS_MS } from "../windows";

const NINETY_DAYS = 90 * DAY_MS;
const SEVEN_DAYS = 7 * DAY_MS;

/** A row as paging sees it: its id field and its time field. */
type Keyed<Id extends string, Time extends string> = { readonly [K in Id | Time]: unknown };
/** Paging over an array of rows with at least `Row`'s fields; it hands back the caller's own rows. */
type ArrayPaging<Row> = Omit<Paging<Row[], Row>, "rows"> & { rows: <R extends Row>(rows: R[]) => R[] };

/**
 * A page that is an array of rows, oldest last: the next cursor is the last row's id, and there is one only
 * when the page came back full (a shorter page is the last). E1 (after the catalog normalises `data` to an
 * array), E4 and E8 page this way.
 */
function lastRowPaging<Id extends string, Time extends string>(
  idField: Id,
  timeField: Time,
  what: string,
  rest: Pick<Paging<unknown, unknown>, "limit" | "maxSpanMs" | "retentionMs">,
): ArrayPaging<Keyed<Id, Time>> {
  type Row = Keyed<Id, Time>;
  const rowId = (r: Row) => String(r[idField]);
  return {
    cursorParam: "idLessThan",
    cursorFrom: `${idField} of the last (oldest) ${what}`,
    nextCursor: (rows, limit) => {
      const last = rows.at(-1);
      return rows.length >= limit && last ? rowId(last) : null;
    },
    rows: <R extends Row>(rows: R[]) => rows,
    rowId,
    rowTime: (r) => String(r[timeField]),
    ...rest,
  };
}

const depositsPaging = lastRowPaging("orderId", "cTime", "record", {
  limit: { default: 20, max: 100 },
  maxSpanMs: THREE_MONTHS_MS,
  retentionMs: null,
});

/** An E3 page as paging sees it: whether there is a next, where it starts, and the orders with their ids. */
type PlanOrderPageShape = { nextFlag: boolean; idLessThan: string; orderList: Keyed<"orderId", "cTime">[] };

/** E3 says itself where the next page starts. */
const planOrdersPaging: Omit<Paging<PlanOrderPageShape, Keyed<"orderId", "cTime">>, "rows"> & {
  rows: <P extends PlanOrderPageShape>(d: P) => P["orderList"];
} = {
  cursorParam: "idLessThan",
  cursorFrom: "idLessThan of the response, while nextFlag is true",
  nextCursor: (d) => (d.nextFlag && d.idLessThan ? d.idLessThan : null),
  rows: <P extends PlanOrderPageShape>(d: P) => d.orderList,
  rowId: (r) => String(r.orderId),
  rowTime: (r) => String(r.cTime),
  limit: { default: 100, max: 100 },
  maxSpanMs: NINETY_DAYS,
  retentionMs: null,
};

const fillsPaging = lastRowPaging("tradeId", "cTime", "fill", {
  limit: { default: 100, max: 100 },
  maxSpanMs: NINETY_DAYS,
  retentionMs: NINETY_DAYS,
});

const marketTradesPaging = lastRowPaging("tradeId", "ts", "trade", {
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
