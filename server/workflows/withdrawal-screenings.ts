import "server-only";
// A withdrawal's screenings as its page shows them (lib/api/withdrawals/screenings.ts): when, on which occasion,
// against which list versions (each version's SHA-256 and publish date as it was screened). The result and the
// matched entries only to a viewer who reads compliance's work: to anyone else a match would say why the request
// is held, which they may not know (lib/api/audit/confidential.ts).
import { DomainError } from "@/lib/api/errors";
import { readsCompliance } from "@/lib/api/audit/confidential";
import type { ScreeningView } from "@/lib/api/withdrawals/screenings";
import type { Role } from "@/lib/rbac";
import type { Queryable } from "@/server/db";
import type { ScreeningMatch, ScreeningResult } from "@/server/screening/screen";

type Row = {
  id: string;
  screened_at: Date;
  occasion: ScreeningView["occasion"];
  address: string;
  versions: ScreeningResult["versions"];
  matched: boolean;
  matches: ScreeningMatch[];
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function withdrawalScreenings(
  db: Queryable,
  viewer: { role: Role },
  id: string,
): Promise<{ items: ScreeningView[]; results: boolean }> {
  const found = UUID.test(id) ? await db.query(`SELECT 1 FROM withdrawal_requests WHERE id = $1::uuid`, [id]) : null;
  if (!found?.rows[0]) throw new DomainError("not_found", `No withdrawal ${id}`);
  const results = readsCompliance(viewer.role);
  // Without monitoring.read, only the screenings every request has (when requested, and each rescreen's): a
  // screening at an approval or a send is written when one was made, and one refused by a listed destination is
  // written too, so its mere presence on a request still waiting would say why it waits.
  const { rows } = await db.query<Row>(
    `SELECT id::text, screened_at, occasion, address, versions, matched, matches FROM screenings
      WHERE subject = 'withdrawal' AND subject_id = $1 AND ($2 OR occasion IN ('request', 'rescreen'))
      ORDER BY screened_at, id LIMIT 500`,
    [id, results],
  );
  return {
    results,
    items: rows.map((r) => ({
      id: r.id,
      screenedAt: new Date(r.screened_at).toISOString(),
      occasion: r.occasion,
      address: r.address,
      versions: r.versions.map((v) => ({
        list: v.list,
        versionId: Number(v.versionId),
        sha256: v.sha256,
        publishedAt: v.publishedAt ?? null,
      })),
      ...(results
        ? {
            matched: r.matched,
            matches: r.matches.map((m) => ({
              list: m.list,
              versionId: Number(m.versionId),
              asset: m.asset,
              listedAs: m.listedAs,
              partyName: m.partyName,
              reason: m.reason,
            })),
          }
        : {}),
    })),
  };
}
