import "server-only";
// Webhook endpoints, as an admin manages them. An endpoint sends data out of Brokerdesk, so adding one, or widening
// what it receives, is a decision of two: the admin who asks (the endpoint waits, "proposed", or its extra events
// wait in proposed_events) and a second admin in good standing who confirms with a fresh factor (the route asks
// it). Narrowing and disabling are at once. What it may receive is what its audience role may read (the catalog's
// permission, as the bell and mail); refused on the field "events" otherwise. Live mode takes https only;
// simulator mode also http to loopback (the demo and the tests). The secret is made here, answered once, kept
// sealed; a rotation keeps the previous one signing for a day. A Slack or Teams URL is a credential too: sealed, and
// only its host and fingerprint answered, shown and audited (./webhook-url.ts).
import { DomainError, invalidField } from "@/lib/api/errors";
import type { EventType } from "@/lib/api/notifications/events";
import {
  WEBHOOK_EVENT_TYPES,
  webhookMayReceive,
  type CreateWebhookInput,
  type WebhookListView,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from "@/lib/api/notifications/webhooks";
import { env } from "@/lib/env";
import { ROLES, type Role } from "@/lib/rbac";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { refuseOnHold } from "@/server/workflows/approval-gate";
import { privateAddressOf } from "./webhook-destination";
import { newWebhookSecret, sealWebhookSecret } from "./webhook-sign";
import { shownWebhookUrl, storedWebhookUrl, urlFingerprint, urlIsSecret } from "./webhook-url";

const ROTATION_OVERLAP_MS = 86_400_000;

type Row = {
  id: string;
  url: string;
  url_fingerprint: string | null;
  description: string;
  format: WebhookEndpointView["format"];
  audience_role: Role;
  events: string[];
  proposed_events: string[] | null;
  proposed_by: string | null;
  state: WebhookEndpointView["state"];
  created_by: string;
  created_at: Date | string;
  approved_by: string | null;
  approved_at: Date | string | null;
  previous_until: Date | string | null;
};

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function toView(r: Row): WebhookEndpointView {
  const previousUntil = r.previous_until && new Date(r.previous_until) > new Date() ? iso(r.previous_until) : null;
  return {
    id: String(r.id),
    // A secret URL's host only (a row from before sealing holds it whole until the jobs' start seals it).
    url: shownWebhookUrl(r.url, r.format),
    urlFingerprint: r.url_fingerprint ?? (urlIsSecret(r.format) ? urlFingerprint(r.url) : null),
    description: r.description,
    format: r.format,
    audienceRole: r.audience_role,
    events: r.events,
    proposedEvents: r.proposed_events,
    proposedBy: r.proposed_by,
    state: r.state,
    createdBy: r.created_by,
    createdAt: iso(r.created_at)!,
    approvedBy: r.approved_by,
    approvedAt: iso(r.approved_at),
    previousSecretUntil: previousUntil,
  };
}

const COLUMNS = `id::text, url, url_fingerprint, description, format, audience_role, events, proposed_events,
  proposed_by, state, created_by, created_at, approved_by, approved_at, previous_until`;

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/**
 * Refuses, on the field "url", what this mode may not send to. Live mode: https only, and never to a private,
 * loopback, link-local or unique-local address, named by number or by a name that resolves to one (checked again at
 * every connection: ./webhook-destination.ts, which also covers a name that does not resolve yet).
 */
export async function checkWebhookUrl(raw: string, mode = env.mode): Promise<string> {
  const u = new URL(raw);
  if (mode !== "simulator") {
    if (u.protocol !== "https:") throw invalidField("url", "url must be https:// (live mode sends nothing in clear)");
    // A name that does not resolve now is taken: every connection resolves it again and refuses a private answer.
    const address = await privateAddressOf(u.hostname).catch(() => null);
    if (address)
      throw invalidField(
        "url",
        `url may not be a loopback or private address in live mode (${u.hostname} is ${address})`,
      );
  } else if (u.protocol === "http:" && !LOOPBACK.has(u.hostname)) {
    throw invalidField("url", "url must be https://, or http:// to loopback (127.0.0.1) in simulator mode");
  }
  return u.toString();
}

function checkEvents(role: Role, events: readonly EventType[]): string[] {
  const refused = events.filter((t) => !webhookMayReceive(role, t));
  if (refused.length)
    throw invalidField(
      "events",
      `events: a ${role} may not read ${refused.join(", ")}, so the endpoint may not get it`,
    );
  return [...new Set(events)].sort();
}

async function rowOf(db: Queryable, id: string, lock = false): Promise<Row> {
  if (!/^[1-9]\d{0,17}$/.test(id)) throw new DomainError("not_found", `No webhook endpoint ${id}`);
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1${lock ? " FOR UPDATE" : ""}`,
    [id],
  );
  if (!rows[0]) throw new DomainError("not_found", `No webhook endpoint ${id}`);
  return rows[0];
}

export async function listWebhooks(db: Queryable): Promise<WebhookListView> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM webhook_endpoints ORDER BY id DESC LIMIT 200`);
  const offered = Object.fromEntries(
    ROLES.map((r) => [r, WEBHOOK_EVENT_TYPES.filter((t) => webhookMayReceive(r, t))]),
  ) as WebhookListView["offered"];
  return { items: rows.map(toView), offered };
}

/** Adds an endpoint, waiting for a second admin; answers its secret, this once. */
export async function createWebhook(db: Db, session: StaffSession, input: CreateWebhookInput, mode = env.mode) {
  const url = await checkWebhookUrl(input.url, mode);
  const events = checkEvents(input.audienceRole, input.events);
  const secret = newWebhookSecret();
  return db.transaction(async (tx) => {
    const { rows: ids } = await tx.query<{ id: string }>(`SELECT nextval('webhook_endpoints_id_seq')::text AS id`);
    const id = ids[0]!.id;
    const stored = storedWebhookUrl(url, input.format, id);
    const { rows } = await tx.query<Row>(
      `INSERT INTO webhook_endpoints (id, url, description, format, audience_role, proposed_events, proposed_by,
         proposed_at, secret_sealed, created_by, url_sealed, url_fingerprint)
       VALUES ($1, $2, $3, $4, $5, $6::text[], $7, now(), $8, $7, $9, $10) RETURNING ${COLUMNS}`,
      [
        id,
        stored.url,
        input.description ?? "",
        input.format,
        input.audienceRole,
        events,
        session.email,
        sealWebhookSecret(secret, id),
        stored.sealed,
        stored.fingerprint,
      ],
    );
    return { endpoint: toView(rows[0]!), secret };
  });
}

/** What the audit intent of adding an endpoint keeps of its input: a Slack or Teams URL's host only. */
export function webhookAuditInput(input: CreateWebhookInput) {
  return urlIsSecret(input.format)
    ? { ...input, url: shownWebhookUrl(input.url, input.format), urlFingerprint: urlFingerprint(input.url) }
    : input;
}

/** The second admin confirms an endpoint, or the events it asks on top: never the admin who asked. */
export async function approveWebhook(db: Db, session: StaffSession, id: string): Promise<WebhookEndpointView> {
  await refuseOnHold(db, session);
  return db.transaction(async (tx) => {
    const row = await rowOf(tx, id, true);
    if (row.state === "disabled") throw new DomainError("already_decided", "This endpoint is disabled");
    if (!row.proposed_events)
      throw new DomainError("already_decided", "Nothing of this endpoint waits to be confirmed");
    if (row.proposed_by?.toLowerCase() === session.email.toLowerCase())
      throw new DomainError("own_request", "You asked for this, so another admin must confirm it");
    await refuseOnHold(tx, session);
    const { rows } = await tx.query<Row>(
      `UPDATE webhook_endpoints SET events = proposed_events, proposed_events = NULL, proposed_by = NULL,
              proposed_at = NULL, state = 'active', approved_by = $2, approved_at = now(),
              active_since = coalesce(active_since, now())
        WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, session.email],
    );
    return toView(rows[0]!);
  });
}

/**
 * Fewer events at once; any event more waits for a second admin (the whole new list is what they confirm; what it
 * drops is dropped at once). A new list replaces what waited.
 */
export async function setWebhookEvents(db: Db, session: StaffSession, id: string, wanted: EventType[]) {
  return db.transaction(async (tx) => {
    const row = await rowOf(tx, id, true);
    if (row.state === "disabled") throw new DomainError("already_decided", "This endpoint is disabled");
    const events = checkEvents(row.audience_role, wanted);
    const widens = events.some((t) => !row.events.includes(t)) || row.state === "proposed";
    const { rows } = widens
      ? await tx.query<Row>(
          `UPDATE webhook_endpoints SET proposed_events = $2::text[], proposed_by = $3, proposed_at = now(),
                  events = (SELECT coalesce(array_agg(e ORDER BY e), '{}') FROM unnest(events) e WHERE e = ANY($2))
            WHERE id = $1 RETURNING ${COLUMNS}`,
          [id, events, session.email],
        )
      : await tx.query<Row>(
          // The list asked now replaces whatever waited: it adds nothing, so nothing waits.
          `UPDATE webhook_endpoints SET events = $2::text[], proposed_events = NULL, proposed_by = NULL,
                  proposed_at = NULL
            WHERE id = $1 RETURNING ${COLUMNS}`,
          [id, events],
        );
    return toView(rows[0]!);
  });
}

/** A new secret, answered once; the previous one signs beside it for a day. */
export async function rotateWebhookSecret(db: Db, id: string) {
  const secret = newWebhookSecret();
  return db.transaction(async (tx) => {
    const row = await rowOf(tx, id, true);
    if (row.state === "disabled") throw new DomainError("already_decided", "This endpoint is disabled");
    const { rows } = await tx.query<Row>(
      `UPDATE webhook_endpoints SET previous_sealed = secret_sealed, previous_until = $3, secret_sealed = $2
        WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, sealWebhookSecret(secret, id), new Date(Date.now() + ROTATION_OVERLAP_MS).toISOString()],
    );
    return { endpoint: toView(rows[0]!), secret };
  });
}

export async function disableWebhook(db: Db, id: string): Promise<WebhookEndpointView> {
  await rowOf(db, id);
  const { rows } = await db.query<Row>(
    `UPDATE webhook_endpoints SET state = 'disabled', proposed_events = NULL, proposed_by = NULL WHERE id = $1
     RETURNING ${COLUMNS}`,
    [id],
  );
  return toView(rows[0]!);
}

type DeliveryRow = {
  id: string;
  event_id: string;
  type: string;
  message_id: string;
  state: WebhookDeliveryView["state"];
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: Date | string | null;
  due_at: Date | string;
  sent_at: Date | string | null;
  created_at: Date | string;
};

const DELIVERY_COLUMNS = `d.id::text, d.event_id::text, e.type, d.message_id, d.state, d.attempts, d.last_status,
  d.last_error, d.last_attempt_at, d.due_at, d.sent_at, d.created_at`;

function deliveryView(r: DeliveryRow): WebhookDeliveryView {
  return {
    id: r.id,
    eventId: r.event_id,
    type: r.type,
    messageId: r.message_id,
    state: r.state,
    attempts: Number(r.attempts),
    lastStatus: r.last_status === null ? null : Number(r.last_status),
    lastError: r.last_error,
    lastAttemptAt: iso(r.last_attempt_at),
    nextAttemptAt: r.state === "queued" ? iso(r.due_at) : null,
    sentAt: iso(r.sent_at),
    createdAt: iso(r.created_at)!,
  };
}

export async function listWebhookDeliveries(db: Queryable, id: string) {
  await rowOf(db, id);
  const { rows } = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN notification_events e ON e.id = d.event_id
      WHERE d.endpoint_id = $1 ORDER BY d.id DESC LIMIT 100`,
    [id],
  );
  return { items: rows.map(deliveryView) };
}

/** "Send again": a new attempt of the same webhook-id, now, retried for 24 hours from now. */
export async function resendWebhookDelivery(db: Db, id: string, deliveryId: string, now = new Date()) {
  const endpoint = await rowOf(db, id);
  if (endpoint.state !== "active") throw new DomainError("already_decided", "This endpoint is not active");
  if (!/^[1-9]\d{0,17}$/.test(deliveryId)) throw new DomainError("not_found", `No delivery ${deliveryId}`);
  const { rows } = await db.query<{ id: string }>(
    `UPDATE webhook_deliveries SET state = 'queued', due_at = $3, give_up_at = $3::timestamptz + interval '24 hours',
            lease_until = NULL
      WHERE id = $1 AND endpoint_id = $2 AND state IN ('sent', 'failed') RETURNING id::text`,
    [deliveryId, id, now.toISOString()],
  );
  const { rows: found } = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN notification_events e ON e.id = d.event_id
      WHERE d.id = $1 AND d.endpoint_id = $2`,
    [deliveryId, id],
  );
  if (!found[0]) throw new DomainError("not_found", `No delivery ${deliveryId} of endpoint ${id}`);
  if (!rows[0]) {
    const s = found[0].state;
    if (s === "withheld") throw new DomainError("already_decided", "This delivery was withheld: nothing to send");
    throw new DomainError("already_in_progress", "This delivery is still being tried");
  }
  return deliveryView(found[0]);
}
