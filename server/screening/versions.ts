import "server-only";
// A list's versions, as kept: every import stays readable, and which one was active at any time is the newest
// version of that list activated at or before it.
import type { Queryable } from "@/server/db";

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
  activatedAt: string;
  auditIntentId: number | null;
  /** The list's active version now. */
  active: boolean;
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
  activated_at: Date | string;
  audit_intent_id: string | number | null;
  active: boolean;
};

const iso = (d: Date | string) => new Date(d).toISOString();

export function versionOf(r: Row): ListVersion {
  return {
    id: Number(r.id),
    list: r.list,
    format: r.format,
    sha256: r.sha256,
    fileName: r.file_name,
    publishedAt: r.published_at === null ? null : iso(r.published_at),
    counts: typeof r.counts === "string" ? (JSON.parse(r.counts) as Record<string, number>) : r.counts,
    addressCount: Number(r.address_count),
    importedBy: r.imported_by,
    importedAt: iso(r.imported_at),
    activatedAt: iso(r.activated_at),
    auditIntentId: r.audit_intent_id === null ? null : Number(r.audit_intent_id),
    active: r.active,
  };
}

const COLUMNS = `v.id, v.list, v.format, v.sha256, v.file_name, v.published_at, v.counts, v.address_count,
  v.imported_by, v.imported_at, v.activated_at, v.audit_intent_id`;
const IS_ACTIVE = `NOT EXISTS (SELECT 1 FROM screening_list_versions n
   WHERE n.list = v.list AND (n.activated_at, n.id) > (v.activated_at, v.id) AND n.activated_at <= now())`;

export async function versionById(db: Queryable, id: number): Promise<ListVersion | null> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS}, ${IS_ACTIVE} AS active FROM screening_list_versions v WHERE v.id = $1`,
    [id],
  );
  return rows[0] ? versionOf(rows[0]) : null;
}

/** Every version, newest first (at most `limit`). */
export async function listVersions(db: Queryable, limit = 200): Promise<ListVersion[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS}, ${IS_ACTIVE} AS active FROM screening_list_versions v
      ORDER BY v.activated_at DESC, v.id DESC LIMIT $1`,
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
