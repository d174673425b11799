// The bell's routes: the signed-in person's notifications (newest first, with how many are unread) and marking
// them read. Isomorphic: the schemas the browser and the server share. The catalog is ./events.ts.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";

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
