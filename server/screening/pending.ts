import "server-only";
// A list version waiting for a second person (it drops addresses its list's active version lists: ./import.ts).
// Confirming makes it the list's active version, under the lists' exclusive lock, and queues the rescreen that
// releases what the dropped addresses held; declining keeps it as evidence, never used. Each is one guarded UPDATE
// (… WHERE activated_at IS NULL AND declined_at IS NULL), so of two deciders exactly one wins; the importer never
// confirms (here and a CHECK constraint, migration 0110). A version imported before another version of its list
// became active was compared with a version that is no longer the active one: it is refused, to be imported again.
import { DomainError } from "@/lib/api/errors";
import type { Db, Queryable } from "@/server/db";
import { lockListsExclusive } from "./lock";
import { queueRescreen } from "./rescreen-queue";
import { versionById, type ListVersion } from "./versions";

type Waiting = { id: string; list: string; imported_by: string; activated_at: Date | null; declined_by: string | null };

async function lockWaiting(tx: Queryable, id: number): Promise<Waiting> {
  const { rows } = await tx.query<Waiting>(
    `SELECT id, list, imported_by, activated_at, declined_by FROM screening_list_versions WHERE id = $1 FOR UPDATE`,
    [id],
  );
  const v = rows[0];
  if (!v) throw new DomainError("not_found", `No list version ${id}`);
  if (v.declined_by !== null) throw new DomainError("already_decided", `List version ${id} was declined`);
  if (v.activated_at !== null) throw new DomainError("already_decided", `List version ${id} is already active`);
  return v;
}

export async function confirmVersion(db: Db, id: number, by: string): Promise<ListVersion & { rescreenId: number }> {
  const rescreenId = await db.transaction(async (tx) => {
    await lockListsExclusive(tx);
    const v = await lockWaiting(tx, id);
    if (v.imported_by.toLowerCase() === by.toLowerCase())
      throw new DomainError("own_request", "You imported this version, so another person must confirm it");
    const { rows } = await tx.query(
      `SELECT 1 FROM screening_list_versions n, screening_list_versions v
        WHERE v.id = $1 AND n.list = v.list AND n.activated_at IS NOT NULL AND n.activated_at > v.imported_at`,
      [id],
    );
    if (rows[0])
      throw new DomainError(
        "already_decided",
        `Another version of ${v.list} became active after this one was imported, so what this one removes has ` +
          "changed: decline it and import the file again",
      );
    await tx.query(
      `UPDATE screening_list_versions SET activated_at = clock_timestamp(), confirmed_by = $2, confirmed_at = now()
        WHERE id = $1 AND activated_at IS NULL AND declined_at IS NULL`,
      [id, by],
    );
    return queueRescreen(tx, id, by);
  });
  return { ...(await versionById(db, id))!, rescreenId };
}

export async function declineVersion(db: Db, id: number, by: string, reason: string): Promise<ListVersion> {
  await db.transaction(async (tx) => {
    await lockWaiting(tx, id);
    await tx.query(
      `UPDATE screening_list_versions SET declined_by = $2, declined_at = now(), decline_reason = $3
        WHERE id = $1 AND activated_at IS NULL AND declined_at IS NULL`,
      [id, by, reason],
    );
  });
  return (await versionById(db, id))!;
}
