// Query-string fields that Brokerdesk's list routes share: time bounds, page size and the one keyset cursor.
// Every list pages newest first with `cursor` (from the previous page's `nextCursor`). Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { isMsTimestamp } from "@/lib/platform/values";
import { preprocess } from "@/lib/platform/value-schemas";
import { compareDecimal } from "@/lib/compare-decimal";

/** The largest page a list answers. */
export const PAGE_MAX = 500;

export const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** An optional filter whose empty value means "not given". */
export const blankless = <S extends z.ZodMiniType>(s: S) => preprocess(blankToUndefined, z.optional(s));

/** A Unix millisecond timestamp, read as a Date. */
export const msTimeFilter = (field: string) =>
  z.optional(
    z.pipe(
      z.string().check(z.refine(isMsTimestamp, { error: `${field} must be a Unix millisecond timestamp` })),
      z.transform((v) => new Date(Number(v))),
    ),
  );

/** A range the other way round is refused on `to`, not answered with nothing (every list with from and to). */
export const orderedRange = () =>
  z.refine<{ from?: Date; to?: Date }>((f) => !f.from || !f.to || f.from.getTime() <= f.to.getTime(), {
    path: ["to"],
    error: "to must not be before from",
  });

/** An amount range the other way round (least above most) is refused on `max`, naming both. */
export const orderedAmounts = <Min extends string, Max extends string>(min: Min, max: Max) =>
  z.refine<Partial<Record<Min | Max, string>>>((f) => !f[min] || !f[max] || compareDecimal(f[min], f[max]) <= 0, {
    path: [max],
    error: `${max} must not be below ${min}`,
  });

const limitMessage = `limit must be a whole number from 1 to ${PAGE_MAX}`;

export const pageLimit = z.optional(
  z.pipe(
    z.pipe(z.string().check(z.regex(/^\d+$/, { error: limitMessage })), z.transform(Number)),
    z
      .number()
      .check(z.int())
      .check(z.gte(1, { error: limitMessage }))
      .check(z.lte(PAGE_MAX, { error: limitMessage })),
  ),
);

/** Opaque: what the server's keyset pager gave out; anything else is refused on this field. */
export const pageCursor = blankless(
  z.string().check(z.maxLength(200, { error: "cursor is not one this list gave out" })),
);

/** The fields of every list over time: its range (with orderedRange() on the object) and its page. */
export const rangeAndPage = {
  from: msTimeFilter("from"),
  to: msTimeFilter("to"),
  cursor: pageCursor,
  limit: pageLimit,
};

/** The paging part of every list's answer. */
export const nextCursorField = z.nullable(z.string());

/** Per coin, how many and their exact total (a decimal string): the totals of a filtered ledger. */
export const coinTotalsField = z.array(z.object({ coin: z.string(), count: z.number(), amount: z.string() }));
