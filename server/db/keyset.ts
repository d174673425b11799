import "server-only";
// The one keyset pager: a list ordered newest first by a unique key, paged with an opaque `cursor` that the
// previous page gave out as `nextCursor` (null on the last page). Stable under inserts, unlike OFFSET, and
// indexed. Each list says how its key is written in a cursor (its codec) and compared in SQL.
import { exportTooLarge, invalidField } from "@/lib/api/errors";
import type { Queryable } from "./types";

/** How a list's key travels in a cursor. `decode` answers null for anything this list never gave out. */
export type CursorCodec<K> = { encode: (key: K) => string; decode: (cursor: string) => K | null };

export type KeysetPage<T> = { items: T[]; nextCursor: string | null };

export type KeysetQuery<Row, K> = {
  /** `SELECT … FROM …`, without WHERE, ORDER BY or LIMIT. */
  select: string;
  /** Filters, each with its own `$n` placeholders for `params`. */
  where: string[];
  params: unknown[];
  /** The newest-first order, e.g. `requested_at DESC, id DESC`; it must match `olderThan`. */
  orderBy: string;
  /** The rows older than `key`, with `p(value)` adding a parameter and giving its placeholder. */
  olderThan: (key: K, p: (value: unknown) => string) => string;
  keyOf: (row: Row) => K;
  codec: CursorCodec<K>;
  cursor?: string;
  limit?: number;
  /** Default and largest page. */
  pageSize: { default: number; max: number };
};

/** One page. A cursor the codec refuses is a 422 on `cursor`, before anything is read. */
export async function keysetPage<Row, K>(db: Queryable, q: KeysetQuery<Row, K>): Promise<KeysetPage<Row>> {
  const where = [...q.where];
  const params = [...q.params];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (q.cursor !== undefined) {
    const key = q.codec.decode(q.cursor);
    if (key === null) throw invalidField("cursor", "cursor is not one this list gave out");
    where.push(q.olderThan(key, p));
  }
  const requested = Number.isFinite(q.limit) ? Math.trunc(q.limit!) : q.pageSize.default;
  const limit = Math.min(Math.max(requested, 1), q.pageSize.max);
  const { rows } = await db.query<Row>(
    `${q.select} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY ${q.orderBy} LIMIT ${limit + 1}`,
    params,
  );
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last !== undefined ? q.codec.encode(q.keyOf(last)) : null };
}

/**
 * Walks every page from the newest (exports). More than `maxRows` rows is never cut short silently: the walk
 * throws export_too_large before it gives out a row past the cap (an export counts first and refuses over the
 * cap; this catches a set that grew past it meanwhile), so the file fails instead of passing for whole.
 */
export async function* keysetWalk<Row, K>(
  db: Queryable,
  q: Omit<KeysetQuery<Row, K>, "cursor" | "limit">,
  maxRows: number,
  narrow = "Narrow it with the filters and export it in parts.",
): AsyncGenerator<Row> {
  let cursor: string | undefined;
  for (let total = 0; ;) {
    const page = await keysetPage(db, { ...q, cursor, limit: q.pageSize.max });
    total += page.items.length;
    if (total > maxRows) throw exportTooLarge(null, maxRows, narrow);
    for (const row of page.items) yield row;
    if (page.nextCursor === null) return;
    cursor = page.nextCursor;
  }
}

/** WHERE clauses built one filter at a time, each value a parameter (never spliced into the SQL). */
export function sqlFilters(): {
  where: string[];
  params: unknown[];
  add: (clause: (p: string) => string, value: unknown) => void;
} {
  const where: string[] = [];
  const params: unknown[] = [];
  return {
    where,
    params,
    add: (clause, value) => {
      params.push(value);
      where.push(clause(`$${params.length}`));
    },
  };
}
