import "server-only";
// The webhook channel: events fanned out to the endpoints subscribed to them, and the deliveries sent. The fan-out
// claims events not yet fanned out to webhooks (SKIP LOCKED) and makes one row per (event, endpoint) for each active
// endpoint subscribed to the type whose audience role may read it (the catalog's rule, as the bell's), marking the
// event in the same transaction. Sending claims due rows with a lease (SKIP LOCKED), posts each outside any
// transaction (10 s timeout, no redirect followed; live mode to public addresses only), then marks it. The body is
// said again from the endpoint's role and subscription at sending: what it may no longer get is withheld. A failure
// is tried again after 1, 2, 4 … minutes (at most an hour apart) until 24 hours have passed, then marked failed. A
// crash between the receiver's answer and the mark sends it again once the lease ends, with the same webhook-id
// (receivers de-duplicate on it). The clock is a parameter (tests move it); the secret is never logged.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import * as z from "zod/mini";
import "@/lib/zod-english";
import { describeEvent, EVENT_SCHEMAS, type EventText, type EventType } from "@/lib/api/notifications/events";
import type { WebhookFormat } from "@/lib/api/notifications/webhooks";
import { env } from "@/lib/env";
import { isRole, type Role } from "@/lib/rbac";
import type { Db } from "@/server/db";
import { logger } from "@/server/log";
import { agentFor, isPrivateAddress, PrivateDestinationError } from "./webhook-destination";
import { openWebhookSecret, webhookHeaders } from "./webhook-sign";
import { webhookUrlToSend } from "./webhook-url";

const BATCH = 500;
const STALE_MS = 86_400_000;
const LEASE_SECONDS = 60;
const GIVE_UP_MS = 86_400_000;
const TIMEOUT_MS = 10_000;

type Endpoint = { id: string; audience_role: Role; events: string[]; active_since: Date | string };

/** Fans new events out to the webhook endpoints (up to a batch); answers how many deliveries it made. */
export async function fanOutWebhooks(db: Db, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows: events } = await tx.query<{ id: string; type: string; payload: unknown; created_at: Date | string }>(
      `SELECT id::text, type, payload, created_at FROM notification_events WHERE hooks_fanned_out_at IS NULL
        ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [BATCH],
    );
    if (!events.length) return 0;
    const { rows: endpoints } = await tx.query<Endpoint>(
      `SELECT id::text, audience_role, events, active_since FROM webhook_endpoints WHERE state = 'active'`,
    );
    const rows: [string, string][] = [];
    for (const e of events) {
      const at = new Date(e.created_at).getTime();
      if (now.getTime() - at > STALE_MS) continue;
      for (const p of endpoints) {
        if (!p.events.includes(e.type) || at < new Date(p.active_since).getTime()) continue;
        if (!isRole(p.audience_role) || !describeEvent(e.type, e.payload, p.audience_role)) continue;
        rows.push([e.id, p.id]);
      }
    }
    let created = 0;
    for (let i = 0; i < rows.length; i += 200) {
      const part = rows.slice(i, i + 200);
      const { rows: inserted } = await tx.query(
        `INSERT INTO webhook_deliveries (event_id, endpoint_id, message_id, due_at, give_up_at, created_at)
         SELECT e, p, 'msg_' || e || '_' || p, $3, $4, $3 FROM unnest($1::bigint[], $2::bigint[]) AS x(e, p)
         ON CONFLICT (event_id, endpoint_id) DO NOTHING RETURNING id`,
        [
          part.map((r) => r[0]),
          part.map((r) => r[1]),
          now.toISOString(),
          new Date(now.getTime() + GIVE_UP_MS).toISOString(),
        ],
      );
      created += inserted.length;
    }
    await tx.query(`UPDATE notification_events SET hooks_fanned_out_at = now() WHERE id = ANY($1::bigint[])`, [
      events.map((e) => e.id),
    ]);
    return created;
  });
}

type Claimed = {
  id: string;
  message_id: string;
  attempts: number;
  give_up_at: Date | string;
  type: string;
  payload: unknown;
  event_at: Date | string;
  endpoint_id: string;
  url: string;
  url_sealed: string | null;
  format: WebhookFormat;
  audience_role: string;
  events: string[];
  endpoint_state: string;
  secret_sealed: string;
  previous_sealed: string | null;
  previous_until: Date | string | null;
};

export type WebhookSendOptions = {
  now?: Date;
  limit?: number;
  baseUrl?: string;
  timeoutMs?: number;
  /** Live mode sends only to public addresses (env.mode unless given: the tests choose). */
  mode?: "live" | "simulator";
};

/** Sends the due webhook deliveries (up to a batch): how many were claimed, sent, failed (for now) and withheld. */
export async function deliverWebhooks(db: Db, opts: WebhookSendOptions = {}) {
  const now = opts.now ?? new Date();
  const { rows } = await db.query<Claimed>(
    `WITH due AS (
       SELECT id FROM webhook_deliveries
        WHERE (state = 'queued' AND due_at <= $3) OR (state = 'sending' AND lease_until < $3)
        ORDER BY due_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE webhook_deliveries d SET state = 'sending', attempts = d.attempts + 1, last_attempt_at = $3,
            lease_until = $3::timestamptz + $2 * interval '1 second'
       FROM due, notification_events e, webhook_endpoints w
      WHERE d.id = due.id AND e.id = d.event_id AND w.id = d.endpoint_id
      RETURNING d.id::text, d.message_id, d.attempts, d.give_up_at, e.type, e.payload, e.created_at AS event_at,
                w.id::text AS endpoint_id, w.url, w.url_sealed, w.format, w.audience_role, w.events,
                w.state AS endpoint_state,
                w.secret_sealed, w.previous_sealed, w.previous_until`,
    [opts.limit ?? 100, LEASE_SECONDS, now.toISOString()],
  );
  const base = opts.baseUrl ?? env.nextAuthUrl;
  const counts = { claimed: rows.length, sent: 0, failed: 0, withheld: 0 };
  await Promise.all(
    rows.map(async (r) => {
      const said =
        r.endpoint_state === "active" && r.events.includes(r.type) && isRole(r.audience_role)
          ? describeEvent(r.type, r.payload, r.audience_role)
          : null;
      if (!said) {
        counts.withheld++;
        await finish(db, r.id, "withheld", null, "withheld: the endpoint no longer gets this event", now);
        return;
      }
      const body = bodyOf(r, said, base);
      const timestamp = Math.floor(now.getTime() / 1000);
      let secrets: string[];
      let url: string;
      try {
        url = webhookUrlToSend(r);
        secrets = [openWebhookSecret(r.secret_sealed, r.endpoint_id)];
        if (r.previous_sealed && r.previous_until && new Date(r.previous_until) > now)
          secrets.push(openWebhookSecret(r.previous_sealed, r.endpoint_id));
      } catch {
        // Sealed under another KEY_SEALING_SECRET: nothing unsigned is ever sent; rotate the endpoint's secret (a
        // Slack or Teams endpoint's sealed URL: add it again).
        counts.failed++;
        await retryLater(db, r, null, "the endpoint's secret or URL does not open (KEY_SEALING_SECRET changed?)", now);
        return;
      }
      const signed = webhookHeaders(secrets, r.message_id, timestamp, body);
      const outcome = await post(url, signed, body, opts.timeoutMs, opts.mode);
      if (outcome.ok) {
        counts.sent++;
        await finish(db, r.id, "sent", outcome.status, null, now);
      } else {
        counts.failed++;
        logger.warn(
          { delivery: r.id, endpoint: r.endpoint_id, status: outcome.status, error: outcome.error },
          "webhook not delivered; will retry",
        );
        await retryLater(db, r, outcome.status, outcome.error ?? "not delivered", now);
      }
    }),
  );
  return counts;
}

/**
 * One POST, no redirect followed (it could take the signed body to another host), the whole exchange within the
 * timeout. In live mode through agents that refuse, at connection, a host that is or resolves to a private address
 * (./webhook-destination.ts): refused so, it is a failed attempt saying why.
 */
async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs = TIMEOUT_MS,
  mode: "live" | "simulator" = env.mode,
): Promise<{ ok: boolean; status: number | null; error: string | null }> {
  const u = new URL(url);
  if (mode !== "simulator") {
    const bare = u.hostname.replace(/^\[|\]$/g, "");
    // A numeric host is never looked up, so the agent's lookup would not see it: checked here.
    if (isIP(bare) && isPrivateAddress(bare))
      return { ok: false, status: null, error: new PrivateDestinationError(u.hostname, bare).message };
  }
  const send = u.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: { ok: boolean; status: number | null; error: string | null }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = send(
      u,
      {
        method: "POST",
        agent: agentFor(u.protocol, mode),
        headers: {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "Brokerdesk-Webhooks/1",
          ...headers,
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        res.resume();
        res.on("end", () => {
          if (status >= 200 && status < 300) return done({ ok: true, status, error: null });
          const error = status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`;
          done({ ok: false, status, error });
        });
        res.on("error", (e) => done({ ok: false, status, error: e.message.slice(0, 300) }));
      },
    );
    const timer = setTimeout(() => {
      done({ ok: false, status: null, error: "timed out" });
      req.destroy();
    }, timeoutMs);
    req.on("error", (e) => done({ ok: false, status: null, error: e.message.slice(0, 300) }));
    req.end(body);
  });
}

async function finish(
  db: Db,
  id: string,
  state: "sent" | "withheld",
  status: number | null,
  note: string | null,
  now: Date,
) {
  await db.query(
    `UPDATE webhook_deliveries SET state = $2, last_status = $3, last_error = $4, lease_until = NULL,
            sent_at = CASE WHEN $2 = 'sent' THEN $5::timestamptz ELSE sent_at END
      WHERE id = $1 AND state = 'sending'`,
    [id, state, status, note, now.toISOString()],
  );
}

async function retryLater(db: Db, r: Claimed, status: number | null, error: string, now: Date) {
  const backoffMs = Math.min(3_600_000, 60_000 * 2 ** Math.max(r.attempts - 1, 0));
  const next = new Date(now.getTime() + backoffMs);
  const gaveUp = next.getTime() > new Date(r.give_up_at).getTime();
  await db.query(
    `UPDATE webhook_deliveries SET state = $2, due_at = $3, last_status = $4, last_error = $5, lease_until = NULL
      WHERE id = $1 AND state = 'sending'`,
    [r.id, gaveUp ? "failed" : "queued", next.toISOString(), status, error],
  );
}

/** The body in the endpoint's format. Standard: {type, timestamp, data}: the payload's catalog fields and a link. */
export function bodyOf(
  r: { type: string; payload: unknown; event_at: Date | string; format: WebhookFormat },
  said: EventText,
  base: string,
): string {
  const link = new URL(said.href, base).toString();
  if (r.format === "slack")
    return JSON.stringify({ text: `*${said.title}*\n${said.text}\n<${link}|Open in Brokerdesk>` });
  if (r.format === "teams")
    return JSON.stringify({
      type: "message",
      attachments: [
        {
          contentType: "application/vnd.microsoft.card.adaptive",
          contentUrl: null,
          content: {
            $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
            type: "AdaptiveCard",
            version: "1.4",
            body: [
              { type: "TextBlock", text: said.title, weight: "Bolder", size: "Medium", wrap: true },
              { type: "TextBlock", text: said.text, wrap: true },
            ],
            actions: [{ type: "Action.OpenUrl", title: "Open in Brokerdesk", url: link }],
          },
        },
      ],
    });
  // Only the catalog's fields of the type (the schema drops anything else a payload may hold).
  const data = z.parse(EVENT_SCHEMAS[r.type as EventType], r.payload) as Record<string, unknown>;
  return JSON.stringify({
    type: r.type,
    timestamp: new Date(r.event_at).toISOString(),
    data: { ...data, title: said.title, text: said.text, link },
  });
}
