import "server-only";
// A list's versions, as kept: every import stays readable, and which one was active at any time is the newest
// version of that list activated at or before it. A version that drops addresses its list's active version lists
// waits for a second person (activated_at NULL) and is used by no lookup until confirmed; a declined one never is.
import type { Queryable } from "@/server/db";

export type VersionState = "active" | "waiting" | "declined" | "superseded";

export type ListVersion = {
  id: number;
  list: string;
  format: string;
  sha256: string;
  fileName: string | null;
  publishedAt: string | null;
  /** Addresses per asset ("XBT": 12, …). */
  counts: Record<string, number>;
  addressCount: number;
  importedBy: string;
  importedAt: string;
  /** Null while it waits for a second person, or once declined. */
  activatedAt: string | null;
  auditIntentId: number | null;
  /** The list's active version now. */
  active: boolean;
  state: VersionState;
  /** Distinct addresses it lists that the list's active version did not, and the reverse, when it was imported. */
  addedCount: number | null;
  removedCount: number;
  confirmedBy: string | null;
  confirmedAt: string | null;
  declinedBy: string | null;
  declinedAt: string | null;
  declineReason: string | null;
};

type Row = {
  id: string;
  list: string;
  format: string;
  sha256: string;
  file_name: string | null;
  published_at: Date | string | null;
  counts: Record<string, number> | string;
  address_count: number;
  imported_by: string;
  imported_at: Date | string;
  activated_at: Date | string | null;
  audit_intent_id: string | number | null;
  active: boolean;
  added_count: number | null;
  removed_count: number;
  confirmed_by: string | null;
  confirmed_at: Date | string | null;
  declined_by: string | null;
  declined_at: Date | string | null;
  decline_reason: string | null;
};

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function versionOf(r: Row): ListVersion {
  const state: VersionState = r.active
    ? "active"
    : r.declined_at !== null
      ? "declined"
      : r.activated_at === null
        ? "waiting"
        : "superseded";
  return {
    id: Number(r.id),
    list: r.list,
    format: r.format,
    sha256: r.sha256,
    fileName: r.file_name,
    publishedAt: iso(r.published_at),
    counts: typeof r.counts === "string" ? (JSON.parse(r.counts) as Record<string, number>) : r.counts,
    addressCount: Number(r.address_count),
    importedBy: r.imported_by,
    importedAt: iso(r.imported_at)!,
    activatedAt: iso(r.activated_at),
    auditIntentId: r.audit_intent_id === null ? null : Number(r.audit_intent_id),
    active: r.active,
    state,
    addedCount: r.added_count === null ? null : Number(r.added_count),
    removedCount: Number(r.removed_count),
    confirmedBy: r.confirmed_by,
    confirmedAt: iso(r.confirmed_at),
    declinedBy: r.declined_by,
    declinedAt: iso(r.declined_at),
    declineReason: r.decline_reason,
  };
}

const COLUMNS = `v.id, v.list, v.format, v.sha256, v.file_name, v.published_at, v.counts, v.address_count,
  v.imported_by, v.imported_at, v.activated_at, v.audit_intent_id, v.added_count, v.removed_count, v.confirmed_by,
  v.confirmed_at, v.declined_by, v.declined_at, v.decline_reason`;
const IS_ACTIVE = `(v.activated_at IS NOT NULL AND v.activated_at <= now()
  AND NOT EXISTS (SELECT 1 FROM screening_list_versions n
   WHERE n.list = v.list AND (n.activated_at, n.id) > (v.activated_at, v.id) AND n.activated_at <= now()))`;

export async function versionById(db: Queryable, id: number): Promise<ListVersion | null> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS}, ${IS_ACTIVE} AS active FROM screening_list_versions v WHERE v.id = $1`,
    [id],
  );
  return rows[0] ? versionOf(rows[0]) : null;
}

/** Every version, newest first (at most `limit`): those waiting for a second person by their import. */
export async function listVersions(db: Queryable, limit = 200): Promise<ListVersion[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS}, ${IS_ACTIVE} AS active FROM screening_list_versions v
      ORDER BY coalesce(v.activated_at, v.imported_at) DESC, v.id DESC LIMIT $1`,
    [limit],
  );
  return rows.map(versionOf);
}

/** The version of each list active at `at` (now when left out): one per list that had one by then. */
export async function activeVersions(db: Queryable, at?: Date): Promise<ListVersion[]> {
  const { rows } = await db.query<Row>(
    `SELECT DISTINCT ON (v.list) ${COLUMNS}, ${IS_ACTIVE} AS active FROM screening_list_versions v
      WHERE v.activated_at <= coalesce($1::timestamptz, now())
      ORDER BY v.list, v.activated_at DESC, v.id DESC`,
    [at ?? null],
  );
  return rows.map(versionOf);
}

/**
 * The active version's id of one list (null: the list has none): the newest activated, including one that another
 * transaction activated after this one's start (an import's transaction is long).
 */
export async function activeVersionId(db: Queryable, list: string): Promise<number | null> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM screening_list_versions WHERE list = $1 AND activated_at IS NOT NULL
      ORDER BY activated_at DESC, id DESC LIMIT 1`,
    [list],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/**
 * What a version changes against another of its list (`from`, the active one; null: none): distinct addresses it
 * lists that `from` did not, and those `from` lists that it does not. Two anti-joins on the entries' key.
 */
export async function compareVersions(
  db: Queryable,
  versionId: number,
  from: number | null,
): Promise<{ added: number; removed: number }> {
  if (from === null) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(DISTINCT address)::int AS n FROM screening_list_entries WHERE version_id = $1`,
      [versionId],
    );
    return { added: rows[0]!.n, removed: 0 };
  }
  const { rows } = await db.query<{ added: number; removed: number }>(
    `SELECT (SELECT count(DISTINCT n.address) FROM screening_list_entries n WHERE n.version_id = $1
               AND NOT EXISTS (SELECT 1 FROM screening_list_entries o WHERE o.version_id = $2 AND o.address = n.address)
            )::int AS added,
            (SELECT count(DISTINCT o.address) FROM screening_list_entries o WHERE o.version_id = $2
               AND NOT EXISTS (SELECT 1 FROM screening_list_entries n WHERE n.version_id = $1 AND n.address = o.address)
            )::int
            -- A party name the active version lists and this one drops turns the Travel Rule's name screening down
            -- as surely as a dropped address (a re-import as CSV, which names no party, would drop them all).
            + (SELECT count(*) FROM screening_list_parties o WHERE o.version_id = $2
               AND NOT EXISTS (SELECT 1 FROM screening_list_parties n WHERE n.version_id = $1
                                AND n.party_name = o.party_name))::int AS removed`,
    [versionId, from],
  );
  return { added: rows[0]!.added, removed: rows[0]!.removed };
}

/** The first addresses (normalised, in order) a version drops against another: what a second person looks at. */
export async function removedAddresses(db: Queryable, versionId: number, from: number, limit = 20): Promise<string[]> {
  const { rows } = await db.query<{ address: string }>(
    `SELECT DISTINCT o.address FROM screening_list_entries o WHERE o.version_id = $2
        AND NOT EXISTS (SELECT 1 FROM screening_list_entries n WHERE n.version_id = $1 AND n.address = o.address)
      ORDER BY o.address LIMIT $3`,
    [versionId, from, limit],
  );
  return rows.map((r) => r.address);
}
