// Webhook endpoints' routes (admin): add one (a second admin confirms it with a fresh factor before anything is
// sent), change its events (widening waits for a second admin too; narrowing is at once), rotate its secret,
// disable it; its delivery log and "send again". Isomorphic: the /admin/webhooks page checks with these schemas.
// What an endpoint may be sent is what its audience role may read (webhookMayReceive), the bell's and mail's rule.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { can, ROLES, type Role } from "@/lib/rbac";
import { defineResource } from "../define-resource";
import { EVENT_PERMISSION, EVENT_TYPES, NOT_YET_RAISED, SECOND_PERSON_PERMISSION, type EventType } from "./events";

import { WEBHOOK_FORMATS } from "./webhook-words";

export { WEBHOOK_FORMATS, type WebhookFormat } from "./webhook-words";
export const WEBHOOK_STATES = ["proposed", "active", "disabled"] as const;
export const DELIVERY_STATES = ["queued", "sending", "sent", "failed", "withheld"] as const;

/** The events an endpoint may subscribe to: raised ones. */
export const WEBHOOK_EVENT_TYPES = EVENT_TYPES.filter((t) => !NOT_YET_RAISED.has(t));

/** Whether an endpoint of this audience role may be sent events of this type at all (the bell's permission). */
export function webhookMayReceive(role: Role, type: EventType): boolean {
  if (type === "control.awaiting_second_person")
    return Object.values(SECOND_PERSON_PERMISSION).some((p) => can(role, p));
  return can(role, EVENT_PERMISSION[type]);
}

const eventsField = z
  .array(z.enum(EVENT_TYPES, { error: `events are each one of ${WEBHOOK_EVENT_TYPES.join(", ")}` }), {
    error: "events is a list of event types",
  })
  .check(
    z.minLength(1, { error: "events names at least one event type" }),
    z.maxLength(EVENT_TYPES.length, { error: "events names each type once" }),
  );

const urlField = z.string({ error: "url is the endpoint's address, https://…" }).check(
  z.trim(),
  z.maxLength(2000, { error: "url is at most 2000 characters" }),
  z.refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === "https:" || u.protocol === "http:") && !u.username && !u.password && !u.hash;
      } catch {
        return false;
      }
    },
    { error: "url is an http(s) address with no user, password or #fragment" },
  ),
);

export const createWebhookInput = z
  .object({
    url: urlField,
    description: z.optional(
      z.string({ error: "description is text" }).check(z.trim(), z.maxLength(200, "description is at most 200")),
    ),
    format: z.enum(WEBHOOK_FORMATS, { error: "format is standard, slack or teams" }),
    audienceRole: z.enum(ROLES, { error: `audienceRole is one of ${ROLES.join(", ")}` }),
    events: eventsField,
  })
  .check(
    z.refine((v) => v.events.every((t) => webhookMayReceive(v.audienceRole, t) && !NOT_YET_RAISED.has(t)), {
      error: "events holds a type the audience role may not read (or one not raised yet)",
      path: ["events"],
    }),
  );
export type CreateWebhookInput = z.output<typeof createWebhookInput>;

export const setWebhookEventsInput = z.object({ events: eventsField });

export const webhookEndpointView = z.object({
  id: z.string(),
  /** A Slack or Teams URL is its credential: only its scheme and host ("https://hooks.slack.com/…"). */
  url: z.string(),
  /** Of a Slack or Teams URL: the first 8 hex of the whole URL's SHA-256 (null for a standard endpoint). */
  urlFingerprint: z.nullable(z.string()),
  description: z.string(),
  format: z.enum(WEBHOOK_FORMATS),
  audienceRole: z.enum(ROLES),
  events: z.array(z.string()),
  /** Events asked for on top of `events`, waiting for a second admin; null when nothing waits. */
  proposedEvents: z.nullable(z.array(z.string())),
  proposedBy: z.nullable(z.string()),
  state: z.enum(WEBHOOK_STATES),
  createdBy: z.string(),
  createdAt: z.string(),
  approvedBy: z.nullable(z.string()),
  approvedAt: z.nullable(z.string()),
  /** Until when the previous secret signs too (after a rotation); null when none does. */
  previousSecretUntil: z.nullable(z.string()),
});
export type WebhookEndpointView = z.output<typeof webhookEndpointView>;

export const webhookListSchema = z.object({
  items: z.array(webhookEndpointView),
  /** The events an endpoint of each audience role may subscribe to. */
  offered: z.record(z.enum(ROLES), z.array(z.string())),
});
export type WebhookListView = z.output<typeof webhookListSchema>;

/** The secret is in this answer only (never again): "whsec_…". */
export const webhookWithSecret = z.object({ endpoint: webhookEndpointView, secret: z.string() });

export const webhookDeliveryView = z.object({
  id: z.string(),
  eventId: z.string(),
  type: z.string(),
  messageId: z.string(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number(),
  lastStatus: z.nullable(z.number()),
  lastError: z.nullable(z.string()),
  lastAttemptAt: z.nullable(z.string()),
  nextAttemptAt: z.nullable(z.string()),
  sentAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type WebhookDeliveryView = z.output<typeof webhookDeliveryView>;

const byId = (_i: unknown, p: { id: string }) => `webhook:${p.id}`;

export const webhookResources = {
  list: defineResource({
    id: "webhooks.list",
    method: "GET",
    path: "/api/admin/webhooks",
    summary: "Webhook endpoints, newest first (never their secrets)",
    permission: "webhooks.manage",
    output: webhookListSchema,
    errors: [],
  }),
  create: defineResource({
    id: "webhooks.create",
    method: "POST",
    path: "/api/admin/webhooks",
    summary: "Add a webhook endpoint (its secret is answered once); nothing is sent until a second admin confirms it",
    permission: "webhooks.manage",
    input: createWebhookInput,
    output: webhookWithSecret,
    // The secret is answered once and never kept in the log: the outcome records the endpoint, not the secret.
    audit: { target: () => "webhooks", outcome: (r) => ({ endpoint: (r as { endpoint: unknown }).endpoint }) },
    errors: [],
  }),
  approve: defineResource({
    id: "webhooks.approve",
    method: "POST",
    path: "/api/admin/webhooks/{id}/approve",
    summary: "Confirm an endpoint, or the events it asks on top, as the second admin (sends data out)",
    permission: "webhooks.manage",
    output: webhookEndpointView,
    audit: { target: byId },
    freshFactor: true,
    errors: ["not_found", "own_request", "already_decided", "approver_on_hold", "mfa_stale"],
  }),
  setEvents: defineResource({
    id: "webhooks.set-events",
    method: "PUT",
    path: "/api/admin/webhooks/{id}/events",
    summary: "Change an endpoint's events: fewer at once; more wait for a second admin",
    permission: "webhooks.manage",
    input: setWebhookEventsInput,
    output: webhookEndpointView,
    audit: { target: byId },
    errors: ["not_found", "already_decided"],
  }),
  rotate: defineResource({
    id: "webhooks.rotate",
    method: "POST",
    path: "/api/admin/webhooks/{id}/rotate",
    summary: "A new secret for an endpoint, answered once; the previous one signs too for 24 hours",
    permission: "webhooks.manage",
    output: webhookWithSecret,
    audit: { target: byId, outcome: (r) => ({ endpoint: (r as { endpoint: unknown }).endpoint }) },
    freshFactor: true,
    errors: ["not_found", "already_decided", "mfa_stale"],
  }),
  disable: defineResource({
    id: "webhooks.disable",
    method: "POST",
    path: "/api/admin/webhooks/{id}/disable",
    summary: "Stop sending to an endpoint (what waits is not sent)",
    permission: "webhooks.manage",
    output: webhookEndpointView,
    audit: { target: byId },
    errors: ["not_found"],
  }),
  deliveries: defineResource({
    id: "webhooks.deliveries",
    method: "GET",
    path: "/api/admin/webhooks/{id}/deliveries",
    summary: "An endpoint's delivery log, newest first (the last 100)",
    permission: "webhooks.manage",
    output: z.object({ items: z.array(webhookDeliveryView) }),
    errors: ["not_found"],
  }),
  resend: defineResource({
    id: "webhooks.resend",
    method: "POST",
    path: "/api/admin/webhooks/{id}/deliveries/{delivery}/resend",
    summary: "Send a delivery again: a new attempt of the same webhook-id, retried for 24 hours",
    permission: "webhooks.manage",
    output: webhookDeliveryView,
    audit: { target: (_i, p) => `webhook:${p.id}:delivery:${p.delivery}` },
    errors: ["not_found", "already_in_progress", "already_decided"],
  }),
} as const;
