import "server-only";

/** Records kept newest first; `id` is ms * 1000 + a sequence, so it grows with time (README "IDs"). */
export type Row = { id: number };

export type PageQuery<R extends Row> = {
  /** Oldest creation time included, ms. */
  startMs: number;
  /** Newest creation time included, ms. */
  endMs: number;
  /** Exclusive upper bound on the id (the idLessThan cursor). */
  idLessThan?: number;
  limit: number;
  filter?: (row: R) => boolean;
};

/** A time-ordered id for a record created at `ms`: the sequence keeps ids unique within one ms. */
export function makeId(ms: number, seq: number): number {
  return ms * 1000 + (seq % 1000);
}

export function idTime(id: number): number {
  return Math.floor(id / 1000);
}

/**
 * One page of a newest-first list: binary search to the first id below the cursor (and at or below
 * endMs), then walk older rows while they are within startMs. Returns the page and whether older
 * matching rows remain.
 */
export function pageDescending<R extends Row>(rows: readonly R[], q: PageQuery<R>): { page: R[]; more: boolean } {
  const upper = Math.min(q.idLessThan ?? Number.POSITIVE_INFINITY, (q.endMs + 1) * 1000);
  const lower = q.startMs * 1000;
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((rows[mid] as R).id >= upper) lo = mid + 1;
    else hi = mid;
  }
  const page: R[] = [];
  for (let i = lo; i < rows.length; i++) {
    const row = rows[i] as R;
    if (row.id < lower) break;
    if (q.filter && !q.filter(row)) continue;
    if (page.length === q.limit) return { page, more: true };
    page.push(row);
  }
  return { page, more: false };
}

/** Inserts a new record keeping the list newest first (new records are nearly always the newest). */
export function insertDescending<R extends Row>(rows: R[], row: R): void {
  let i = 0;
  while (i < rows.length && (rows[i] as R).id > row.id) i++;
  rows.splice(i, 0, row);
}

/** A row without its internal numeric id (the wire carries the string ids only). */
export function withoutId<R extends Row>(row: R): Omit<R, "id"> {
  const copy: Partial<R> = { ...row };
  delete copy.id;
  return copy as Omit<R, "id">;
}
