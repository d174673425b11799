import "server-only";
// A list version waiting for a second person (it drops addresses its list's active version lists), decided on the
// /screening page: confirmed by someone with monitoring.write who did not import it, in good standing (approver
// hold: approval-gate.ts) and with a fresh second factor (the route's), or declined with a reason. And the
// rescreens that follow each version that became active: their progress and report.
import { invalidField } from "@/lib/api/errors";
import type { RescreenView } from "@/lib/api/screening";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { confirmVersion, declineVersion, type ListVersion } from "@/server/screening";
import { refuseOnHold } from "./approval-gate";

/** A version's id from the path: a positive whole number, else refused on the field. */
export function versionIdOf(raw: string): number {
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw invalidField("id", "id must be a list version's number");
  return Number(raw);
}

export async function confirmListVersion(db: Db, session: StaffSession, rawId: string): Promise<ListVersion> {
  const id = versionIdOf(rawId);
  await refuseOnHold(db, session);
  // The rescreen it queued is on the page's list of rescreens (listRescreens).
  return confirmVersion(db, id, session.email);
}

export async function declineListVersion(
  db: Db,
  session: StaffSession,
  rawId: string,
  input: { reason: string },
): Promise<ListVersion> {
  const id = versionIdOf(rawId);
  await refuseOnHold(db, session);
  return declineVersion(db, id, session.email, input.reason);
}

type RescreenRow = {
  id: string;
  version_id: string | null;
  state: RescreenView["state"];
  requested_by: string;
  requested_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  progress: Record<string, unknown>;
  report: RescreenView["report"];
  error: string | null;
};

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The newest rescreens (at most `limit`), with their progress and report. */
export async function listRescreens(db: Queryable, limit = 50): Promise<{ rescreens: RescreenView[] }> {
  const { rows } = await db.query<RescreenRow>(
    `SELECT id, version_id, state, requested_by, requested_at, started_at, finished_at, progress, report, error
       FROM screening_rescreens ORDER BY id DESC LIMIT $1`,
    [limit],
  );
  return {
    rescreens: rows.map((r) => ({
      id: Number(r.id),
      versionId: r.version_id === null ? null : Number(r.version_id),
      state: r.state,
      requestedBy: r.requested_by,
      requestedAt: iso(r.requested_at)!,
      startedAt: iso(r.started_at),
      finishedAt: iso(r.finished_at),
      progress: r.progress,
      report: r.report,
      error: r.error,
    })),
  };
}
