import "server-only";
// Every screening is kept as evidence (migration 0110 `screenings`): what was screened, on which occasion,
// against which list versions, and the result, "no match" included. `screenAndRecord` screens and writes the row
// in one call; `recordScreening` writes a result screened earlier (a decision that screened in a transaction it
// then rolled back records it after).
import type { Queryable } from "@/server/db";
import { screenAddress, type ScreeningResult } from "./screen";

export type ScreeningOccasion = "request" | "approval" | "send" | "proposal" | "rescreen" | "deposit";

export type ScreeningSubject = {
  subject: "withdrawal" | "deposit" | "destination";
  subjectId: string;
  subUid: string | null;
  address: string;
  occasion: ScreeningOccasion;
  rescreenId?: number | null;
};

/** Writes one screening's evidence; answers its row ID. */
export async function recordScreening(db: Queryable, s: ScreeningSubject, result: ScreeningResult): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO screenings (subject, subject_id, sub_uid, address, occasion, versions, matched, matches, rescreen_id,
                             screened_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8::jsonb, $9, $10) RETURNING id::text`,
    [
      s.subject,
      s.subjectId,
      s.subUid,
      s.address,
      s.occasion,
      JSON.stringify(result.versions),
      result.match,
      JSON.stringify(result.matches),
      s.rescreenId ?? null,
      result.at,
    ],
  );
  return Number(rows[0]!.id);
}

/** Screens the address against the lists active at `at` (now by default) and keeps the screening. */
export async function screenAndRecord(
  db: Queryable,
  s: ScreeningSubject,
  at?: Date,
): Promise<ScreeningResult & { screeningId: number }> {
  const result = await screenAddress(db, s.address, at);
  return { ...result, screeningId: await recordScreening(db, s, result) };
}
