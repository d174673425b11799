import "server-only";
// The bell: the events of the last 30 days whose audience is the reader (by e-mail, or by a permission their role
// holds, in the roles it names, never its own "except"), each described by the catalog for the reader's role now
// (lib/api/notifications/events.ts), so a role changed since reads only what it may read today. Read marks are the
// reader's own: everything up to a number, and single ones above it.
import { describeEvent } from "@/lib/api/notifications/events";
import type { InboxView } from "@/lib/api/notifications";
import { ROLE_PERMISSIONS, type Role } from "@/lib/rbac";
import type { Queryable } from "@/server/db";

export type Reader = { email: string; role: Role };

const LIMIT = 30;
const COUNT_CAP = 100;

/** The events addressed to the reader: $1 e-mail, $2 the role's permissions, $3 the role. */
const ADDRESSED = `e.created_at > now() - interval '30 days'
  AND (CASE WHEN e.audience ? 'email' THEN lower(e.audience ->> 'email') = lower($1)
            ELSE (e.audience ->> 'permission') = ANY($2::text[])
              AND (NOT e.audience ? 'except' OR lower(e.audience ->> 'except') <> lower($1))
              AND (NOT e.audience ? 'roles' OR e.audience -> 'roles' ? $3) END)
  AND (NOT e.audience ? 'permission' OR (e.audience ->> 'permission') = ANY($2::text[]))`;

const READ = `(e.id <= coalesce(r.read_through, 0) OR e.id = ANY(coalesce(r.read_ids, '{}')))`;

type Row = { id: string; type: string; payload: unknown; created_at: Date | string; read: boolean };

function params(reader: Reader): unknown[] {
  return [reader.email, [...ROLE_PERMISSIONS[reader.role]], reader.role];
}

/** The types this reader chose never to see in the app. */
async function mutedInApp(db: Queryable, reader: Reader): Promise<Set<string>> {
  const { rows } = await db.query<{ type: string }>(
    `SELECT type FROM notification_preferences WHERE email = lower($1) AND channel = 'app' AND mode = 'never'`,
    [reader.email],
  );
  return new Set(rows.map((r) => r.type));
}

export async function unreadCount(db: Queryable, reader: Reader): Promise<number> {
  const muted = await mutedInApp(db, reader);
  // Counted over what the catalog lets the role read: a type the role may not read never counts.
  const { rows } = await db.query<{ type: string; payload: unknown }>(
    `SELECT e.type, e.payload FROM notification_events e
       LEFT JOIN notification_reads r ON r.email = lower($1)
      WHERE ${ADDRESSED} AND NOT ${READ}
      ORDER BY e.id DESC LIMIT ${COUNT_CAP * 2}`,
    params(reader),
  );
  const shown = rows.filter((r) => !muted.has(r.type) && describeEvent(r.type, r.payload, reader.role) !== null);
  return Math.min(COUNT_CAP, shown.length);
}

export async function inbox(db: Queryable, reader: Reader): Promise<InboxView> {
  const { rows } = await db.query<Row>(
    `SELECT e.id::text, e.type, e.payload, e.created_at, ${READ} AS read FROM notification_events e
       LEFT JOIN notification_reads r ON r.email = lower($1)
      WHERE ${ADDRESSED}
      ORDER BY e.id DESC LIMIT ${LIMIT * 2}`,
    params(reader),
  );
  const muted = await mutedInApp(db, reader);
  const items = rows
    .filter((r) => !muted.has(r.type))
    .flatMap((r) => {
      const said = describeEvent(r.type, r.payload, reader.role);
      return said
        ? [{ id: Number(r.id), type: r.type, ...said, createdAt: new Date(r.created_at).toISOString(), read: r.read }]
        : [];
    })
    .slice(0, LIMIT);
  return { items, unread: await unreadCount(db, reader) };
}

export async function markRead(
  db: Queryable,
  reader: Reader,
  input: { through?: number; id?: number },
): Promise<{ unread: number }> {
  if (input.through !== undefined) {
    await db.query(
      `INSERT INTO notification_reads (email, read_through) VALUES (lower($1), $2)
       ON CONFLICT (email) DO UPDATE SET read_through = greatest(notification_reads.read_through, $2),
         read_ids = ARRAY(SELECT x FROM unnest(notification_reads.read_ids) x WHERE x > $2)`,
      [reader.email, input.through],
    );
  } else if (input.id !== undefined) {
    await db.query(
      `INSERT INTO notification_reads (email, read_ids) VALUES (lower($1), ARRAY[$2::bigint])
       ON CONFLICT (email) DO UPDATE SET read_ids = CASE
         WHEN $2 <= notification_reads.read_through OR $2 = ANY(notification_reads.read_ids)
         THEN notification_reads.read_ids
         ELSE (notification_reads.read_ids || $2::bigint)[greatest(1, cardinality(notification_reads.read_ids) - 198):]
       END`,
      [reader.email, input.id],
    );
  }
  return { unread: await unreadCount(db, reader) };
}
