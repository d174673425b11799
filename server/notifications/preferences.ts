import "server-only";
// Each person's notification choices (/account): per event type the role may receive and per channel, their mode,
// chosen or the role's default (lib/api/notifications/preferences.ts); their digest's time and time zone. Saving
// replaces their choices whole, in one transaction; a choice for a type the role may not receive is refused.
import { invalidField } from "@/lib/api/errors";
import {
  EVENT_PERMISSION,
  EVENT_TYPES,
  NOT_YET_RAISED,
  SECOND_PERSON_PERMISSION,
} from "@/lib/api/notifications/events";
import type { PreferencesView, SavePreferencesInput } from "@/lib/api/notifications";
import { CHANNELS, defaultMode, type Mode } from "@/lib/api/notifications/preferences";
import { env } from "@/lib/env";
import { can, type Role } from "@/lib/rbac";
import type { Db, Queryable } from "@/server/db";

type Who = { email: string; role: Role };

/** The types a role may receive at all. */
export function typesFor(role: Role): (typeof EVENT_TYPES)[number][] {
  return EVENT_TYPES.filter((t) =>
    NOT_YET_RAISED.has(t)
      ? false
      : t === "control.awaiting_second_person"
        ? Object.values(SECOND_PERSON_PERMISSION).some((p) => can(role, p))
        : can(role, EVENT_PERMISSION[t]),
  );
}

export async function getPreferences(db: Queryable, who: Who): Promise<PreferencesView> {
  const { rows } = await db.query<{ type: string; channel: string; mode: Mode }>(
    `SELECT type, channel, mode FROM notification_preferences WHERE email = lower($1)`,
    [who.email],
  );
  const chosen = new Map(rows.map((r) => [`${r.type}|${r.channel}`, r.mode]));
  const settings = await db.query<{ digest_at: string; time_zone: string }>(
    `SELECT digest_at, time_zone FROM notification_settings WHERE email = lower($1)`,
    [who.email],
  );
  return {
    choices: typesFor(who.role).flatMap((type) =>
      CHANNELS.map((channel) => {
        const mode = chosen.get(`${type}|${channel}`);
        return { type, channel, mode: mode ?? defaultMode(who.role, type, channel), chosen: mode !== undefined };
      }),
    ),
    digestAt: settings.rows[0]?.digest_at ?? "08:00",
    timeZone: settings.rows[0]?.time_zone ?? "UTC",
    email: env.notify.smtpUrl ? "on" : env.mode === "simulator" ? "sink" : "off",
  };
}

export async function savePreferences(db: Db, who: Who, input: SavePreferencesInput): Promise<PreferencesView> {
  const allowed = new Set<string>(typesFor(who.role));
  const refused = input.choices.find((c) => !allowed.has(c.type));
  if (refused) throw invalidField("choices", `Your role does not receive ${refused.type}`);
  await db.transaction(async (tx) => {
    await tx.query(`DELETE FROM notification_preferences WHERE email = lower($1)`, [who.email]);
    for (const c of input.choices)
      await tx.query(
        `INSERT INTO notification_preferences (email, type, channel, mode) VALUES (lower($1), $2, $3, $4)
         ON CONFLICT (email, type, channel) DO UPDATE SET mode = EXCLUDED.mode`,
        [who.email, c.type, c.channel, c.mode],
      );
    await tx.query(
      `INSERT INTO notification_settings (email, digest_at, time_zone) VALUES (lower($1), $2, $3)
       ON CONFLICT (email) DO UPDATE SET digest_at = EXCLUDED.digest_at, time_zone = EXCLUDED.time_zone`,
      [who.email, input.digestAt, input.timeZone],
    );
  });
  return getPreferences(db, who);
}
