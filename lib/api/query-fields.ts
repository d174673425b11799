// Query-string fields that Brokerdesk's list routes share: time bounds, page size and the one keyset cursor.
// Every list pages newest first with `cursor` (from the previous page's `nextCursor`). Isomorphic.
import { z } from "zod";
import { isMsTimestamp } from "@/lib/platform/schemas";

/** The largest page a list answers. */
export const PAGE_MAX = 500;

export const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** An optional filter whose empty value means "not given". */
export const blankless = <S extends z.ZodType>(s: S) => z.preprocess(blankToUndefined, s.optional());

/** A Unix millisecond timestamp, read as a Date. */
export const msTimeFilter = (field: string) =>
  z
    .string()
    // Not a bare 16-digit check: past year 275760 the Date below would be invalid (and the query a 500).
    .refine(isMsTimestamp, { error: `${field} must be a Unix millisecond timestamp` })
    .transform((v) => new Date(Number(v)))
    .optional();

const limitMessage = `limit must be a whole number from 1 to ${PAGE_MAX}`;

export const pageLimit = z
  .string()
  .regex(/^\d+$/, { error: limitMessage })
  .transform(Number)
  .pipe(z.number().int().min(1, { error: limitMessage }).max(PAGE_MAX, { error: limitMessage }))
  .optional();

/** Opaque: what the server's keyset pager gave out; anything else is refused on this field. */
export const pageCursor = blankless(z.string().max(200, { error: "cursor is not one this list gave out" }));

/** The paging part of every list's answer. */
export const nextCursorField = z.string().nullable();
