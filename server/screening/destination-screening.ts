import "server-only";
// An address-book entry's screening: the lookup (./screen.ts) kept as evidence in `screenings` (subject
// 'destination'), and its outcome on the entry itself (`listed`: the lists that list it, or null; `screened_at`).
// At proposal and before an approval; the rescreen after each new list version does the same in bulk (./rescreen.ts).
import type { Queryable } from "@/server/db";
import { screenAddress, type ScreeningResult } from "./screen";

export type Listed = { list: string; versionId: number }[];

export async function screenDestination(
  tx: Queryable,
  entry: { id: string; subUid: string; address: string },
  occasion: "proposal" | "approval",
): Promise<{ result: ScreeningResult; listed: Listed | null }> {
  const result = await screenAddress(tx, entry.address);
  const listed = result.match
    ? [...new Map(result.matches.map((m) => [m.versionId, { list: m.list, versionId: m.versionId }])).values()]
    : null;
  await tx.query(
    `INSERT INTO screenings (subject, subject_id, sub_uid, address, occasion, versions, matched, matches)
     VALUES ('destination', $1, $2, $3, $4, $5::jsonb, $6, $7::jsonb)`,
    [
      entry.id,
      entry.subUid,
      entry.address,
      occasion,
      JSON.stringify(result.versions.map((v) => ({ list: v.list, versionId: v.versionId, sha256: v.sha256 }))),
      result.match,
      JSON.stringify(result.matches),
    ],
  );
  await tx.query(`UPDATE withdrawal_destinations SET listed = $2::jsonb, screened_at = now() WHERE id = $1`, [
    entry.id,
    listed === null ? null : JSON.stringify(listed),
  ]);
  return { result, listed };
}
