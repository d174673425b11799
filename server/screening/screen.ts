import "server-only";
// Is this address listed? Against the version of every list active at `at` (now by default), on the address
// alone (normalised: lib/screening-address.ts), whatever chain or asset it is sent on. One statement.
import { normaliseAddress } from "@/lib/screening-address";
import type { Queryable } from "@/server/db";

export type ScreeningMatch = {
  list: string;
  versionId: number;
  asset: string;
  listedAs: string;
  partyName: string | null;
  partyRef: string | null;
  reason: string | null;
};

export type ScreeningResult = {
  address: string;
  normalised: string;
  at: string;
  /** The versions screened against, one per list active at `at`: none means nothing was screened. */
  versions: { list: string; versionId: number; sha256: string; publishedAt: string | null }[];
  match: boolean;
  matches: ScreeningMatch[];
};

type Row = {
  list: string;
  version_id: string;
  sha256: string;
  published_at: Date | string | null;
  asset: string | null;
  listed_as: string | null;
  party_name: string | null;
  party_ref: string | null;
  reason: string | null;
  at: Date | string;
};

export async function screenAddress(db: Queryable, address: string, at?: Date): Promise<ScreeningResult> {
  const normalised = normaliseAddress(address);
  const { rows } = await db.query<Row>(
    `WITH t AS (SELECT coalesce($2::timestamptz, now()) AS at),
     active AS (
       SELECT DISTINCT ON (v.list) v.id, v.list, v.sha256, v.published_at
         FROM screening_list_versions v, t WHERE v.activated_at <= t.at
        ORDER BY v.list, v.activated_at DESC, v.id DESC)
     SELECT a.list, a.id AS version_id, a.sha256, a.published_at, e.asset, e.listed_as, e.party_name, e.party_ref,
            e.reason, t.at
       FROM active a CROSS JOIN t
       LEFT JOIN screening_list_entries e ON e.version_id = a.id AND e.address = $1
      ORDER BY a.list, e.ordinal`,
    [normalised, at ?? null],
  );
  const versions = new Map<number, ScreeningResult["versions"][number]>();
  const matches: ScreeningMatch[] = [];
  for (const r of rows) {
    const versionId = Number(r.version_id);
    const publishedAt = r.published_at === null ? null : new Date(r.published_at).toISOString();
    versions.set(versionId, { list: r.list, versionId, sha256: r.sha256, publishedAt });
    if (r.asset !== null) {
      matches.push({
        list: r.list,
        versionId,
        asset: r.asset,
        listedAs: r.listed_as!,
        partyName: r.party_name,
        partyRef: r.party_ref,
        reason: r.reason,
      });
    }
  }
  return {
    address,
    normalised,
    at: (at ?? new Date(rows[0]?.at ?? Date.now())).toISOString(),
    versions: [...versions.values()],
    match: matches.length > 0,
    matches,
  };
}
