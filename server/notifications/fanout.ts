import "server-only";
// From events to e-mail deliveries. The events not yet fanned out are claimed (SKIP LOCKED: two instances take
// different ones); each event's recipients are the active staff its audience names whose role may read it now (the
// catalog, lib/api/notifications/events.ts), and whose choice for its type is not "never"; each gets one delivery
// row, keyed by (event, recipient, channel), due at once or at their next digest. The event is marked in the same
// transaction as its rows: a fan-out cut short by a crash is done again, and inserts nothing twice; an event that
// committed late (its number taken early in a long transaction) is fanned out when it is seen, not skipped.
// Events older than a day when first seen (e-mail just switched on) are marked and passed over, not mailed late.
import { describeEvent, type EventType } from "@/lib/api/notifications/events";
import { addressedTo, defaultMode, type Audience, type Mode } from "@/lib/api/notifications/preferences";
import { ROLE_PERMISSIONS, isRole, type Role } from "@/lib/rbac";
import type { Db, Queryable } from "@/server/db";
import { nextDigestAt } from "./digest";

const BATCH = 500;
const STALE_MS = 86_400_000;

type EventRow = { id: string; type: string; payload: unknown; audience: Audience; created_at: Date | string };
type Staff = { email: string; role: Role; permissions: readonly string[] };

/** Fans out the events not yet fanned out (up to a batch); answers how many deliveries it created. */
export async function fanOut(db: Db, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows: events } = await tx.query<EventRow>(
      `SELECT id::text, type, payload, audience, created_at FROM notification_events
        WHERE fanned_out_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [BATCH],
    );
    if (!events.length) return 0;
    const staff = await activeStaff(tx);
    const choices = await emailChoices(tx);
    const digests = await digestSettings(tx);
    const rows: [string, string, Mode, Date][] = [];
    for (const e of events) {
      if (now.getTime() - new Date(e.created_at).getTime() > STALE_MS) continue;
      for (const s of staff) {
        if (!addressedTo(e.audience, s) || !describeEvent(e.type, e.payload, s.role)) continue;
        const mode = choices.get(`${s.email}|${e.type}`) ?? defaultMode(s.role, e.type as EventType, "email");
        if (mode === "never") continue;
        const due = mode === "digest" ? nextDigestAt(digests.get(s.email), now) : now;
        rows.push([e.id, s.email, mode, due]);
      }
    }
    let created = 0;
    for (let i = 0; i < rows.length; i += 200) {
      const part = rows.slice(i, i + 200);
      const { rows: inserted } = await tx.query(
        `INSERT INTO notification_deliveries (event_id, recipient, channel, mode, due_at)
         SELECT e, r, 'email', m, d FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[]) AS x(e, r, m, d)
         ON CONFLICT (event_id, recipient, channel) DO NOTHING RETURNING id`,
        [part.map((r) => r[0]), part.map((r) => r[1]), part.map((r) => r[2]), part.map((r) => r[3].toISOString())],
      );
      created += inserted.length;
    }
    await tx.query(`UPDATE notification_events SET fanned_out_at = now() WHERE id = ANY($1::bigint[])`, [
      events.map((e) => e.id),
    ]);
    return created;
  });
}

async function activeStaff(db: Queryable): Promise<Staff[]> {
  const { rows } = await db.query<{ email: string; role: string }>(
    `SELECT email, role FROM staff_users WHERE NOT disabled ORDER BY email`,
  );
  return rows.flatMap((r) =>
    isRole(r.role) ? [{ email: r.email, role: r.role, permissions: ROLE_PERMISSIONS[r.role] }] : [],
  );
}

async function emailChoices(db: Queryable): Promise<Map<string, Mode>> {
  const { rows } = await db.query<{ email: string; type: string; mode: Mode }>(
    `SELECT lower(email) AS email, type, mode FROM notification_preferences WHERE channel = 'email'`,
  );
  return new Map(rows.map((r) => [`${r.email}|${r.type}`, r.mode]));
}

async function digestSettings(db: Queryable): Promise<Map<string, { digestAt: string; timeZone: string }>> {
  const { rows } = await db.query<{ email: string; digest_at: string; time_zone: string }>(
    `SELECT lower(email) AS email, digest_at, time_zone FROM notification_settings`,
  );
  return new Map(rows.map((r) => [r.email, { digestAt: r.digest_at, timeZone: r.time_zone }]));
}
