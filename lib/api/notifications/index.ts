// The bell's routes: the signed-in person's notifications (newest first, with how many are unread) and marking
// them read. Isomorphic: the schemas the browser and the server share. The catalog is ./events.ts.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { EVENT_TYPES } from "./events";
import { CHANNELS, MODES } from "./preferences";

export const notificationSchema = z.object({
  id: z.number(),
  type: z.string(),
  title: z.string(),
  text: z.string(),
  href: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type NotificationView = z.output<typeof notificationSchema>;

export const inboxSchema = z.object({
  items: z.array(notificationSchema),
  /** Unread, counted up to 100 (the bell says "99+" above that). */
  unread: z.number(),
});
export type InboxView = z.output<typeof inboxSchema>;

const eventId = (field: string) =>
  z
    .number({ error: `${field} is an event's number` })
    .check(
      z.int({ error: `${field} is a whole number` }),
      z.gte(1, { error: `${field} is at least 1` }),
      z.lte(Number.MAX_SAFE_INTEGER, { error: `${field} is too large` }),
    );

export const markReadSchema = z
  .object({
    /** Everything up to and including this event. */
    through: z.optional(eventId("through")),
    /** One event. */
    id: z.optional(eventId("id")),
  })
  .check(
    z.refine((v) => (v.through === undefined) !== (v.id === undefined), {
      error: "Give either through (everything up to an event) or id (one event)",
      path: ["through"],
    }),
  );

export const notificationResources = {
  inbox: defineResource({
    id: "notifications.inbox",
    method: "GET",
    path: "/api/notifications",
    summary: "The signed-in person's notifications, newest first (the last 30 days, at most 30), and the unread count",
    permission: "signed-in",
    output: inboxSchema,
    errors: [],
  }),
  markRead: defineResource({
    id: "notifications.mark-read",
    method: "POST",
    path: "/api/notifications/read",
    summary: "Mark one notification, or every one up to a number, as read",
    permission: "signed-in",
    input: markReadSchema,
    output: z.object({ unread: z.number() }),
    errors: [],
  }),
} as const;

// ---- each person's choices ----

export const preferenceRowSchema = z.object({
  type: z.enum(EVENT_TYPES, { error: `type is one of ${EVENT_TYPES.join(", ")}` }),
  channel: z.enum(CHANNELS, { error: "channel is app or email" }),
  mode: z.enum(MODES, { error: "mode is immediate, digest or never" }),
});

export const preferencesSchema = z.object({
  /** One row per event type and channel this person may receive; what they did not choose is their role's default. */
  choices: z.array(z.extend(preferenceRowSchema, { chosen: z.boolean() })),
  digestAt: z.string(),
  timeZone: z.string(),
  /** Whether e-mail is on at all (SMTP_URL, or the simulator's sink). */
  email: z.enum(["on", "off", "sink"]),
});
export type PreferencesView = z.output<typeof preferencesSchema>;

const validZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

export const savePreferencesSchema = z.object({
  choices: z
    .array(preferenceRowSchema, { error: "choices is a list of {type, channel, mode}" })
    .check(z.maxLength(100, { error: "choices has at most 100 rows" })),
  digestAt: z
    .string({ error: "digestAt is a time of day, HH:MM" })
    .check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "digestAt is a time of day, HH:MM (24-hour)" })),
  timeZone: z
    .string({ error: "timeZone is a time zone such as Europe/Berlin" })
    .check(z.minLength(1, { error: "timeZone is a time zone such as Europe/Berlin" }))
    .check(z.maxLength(64, { error: "timeZone is at most 64 characters" }))
    .check(z.refine(validZone, { error: "timeZone is not a time zone this server knows (e.g. Europe/Berlin, UTC)" })),
});
export type SavePreferencesInput = z.output<typeof savePreferencesSchema>;

export const preferenceResources = {
  preferences: defineResource({
    id: "notifications.preferences",
    method: "GET",
    path: "/api/account/notifications",
    summary: "The signed-in person's notification choices, per event and channel, and their digest's time",
    permission: "signed-in",
    output: preferencesSchema,
    errors: [],
  }),
  savePreferences: defineResource({
    id: "notifications.save-preferences",
    method: "PUT",
    path: "/api/account/notifications",
    summary: "Save the signed-in person's notification choices and digest time",
    permission: "signed-in",
    input: savePreferencesSchema,
    output: preferencesSchema,
    audit: { target: () => "notifications:self" },
    errors: [],
  }),
} as const;
