import "server-only";
// Sending the e-mail deliveries that are due. A batch is claimed with a lease (SKIP LOCKED: two instances never
// claim one delivery at once; a sender that died is taken over when its lease runs out), then sent outside any
// transaction (an SMTP round trip holds no database connection), then marked. An immediate delivery is one mail;
// a person's due digest deliveries are one mail together. What a mail says is decided again at sending, from the
// recipient's role now (lib/api/notifications/events.ts): no amount, address, rule or reason their role may not
// read. A failed send is tried again with backoff (1, 2, 4 … minutes, at most an hour apart) for 24 hours, then
// marked failed. Between a send and its mark a crash sends that mail again once its lease ends: an SMTP server
// gives no way to ask whether it already took a message; its Message-ID stays the same, so mail clients see one.
import { describeEvent, type EventText } from "@/lib/api/notifications/events";
import { env } from "@/lib/env";
import { isRole } from "@/lib/rbac";
import type { Db } from "@/server/db";
import { logger } from "@/server/log";
import type { Mail, Mailer } from "./mailer";

const LEASE_SECONDS = 60;
const GIVE_UP_MS = 24 * 3_600_000;

type Claimed = {
  id: string;
  event_id: string;
  recipient: string;
  mode: "immediate" | "digest";
  attempts: number;
  created_at: Date | string;
  type: string;
  payload: unknown;
  event_at: Date | string;
  role: string | null;
};

export async function deliverDue(db: Db, mailer: Mailer, opts: { limit?: number; baseUrl?: string } = {}) {
  const { rows } = await db.query<Claimed>(
    `WITH due AS (
       SELECT id FROM notification_deliveries
        WHERE (state = 'queued' AND due_at <= now()) OR (state = 'sending' AND lease_until < now())
        ORDER BY due_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE notification_deliveries d SET state = 'sending', lease_until = now() + $2 * interval '1 second',
            attempts = d.attempts + 1
       FROM due, notification_events e
      WHERE d.id = due.id AND e.id = d.event_id
      RETURNING d.id::text, d.event_id::text, d.recipient, d.mode, d.attempts, d.created_at, e.type, e.payload,
                e.created_at AS event_at,
                (SELECT role FROM staff_users s WHERE s.email = lower(d.recipient) AND NOT s.disabled) AS role`,
    [opts.limit ?? 100, LEASE_SECONDS],
  );
  const base = opts.baseUrl ?? env.nextAuthUrl;
  const groups = new Map<string, Claimed[]>();
  for (const r of rows) {
    const key = r.mode === "digest" ? `digest|${r.recipient}` : `one|${r.id}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  let sent = 0;
  let failed = 0;
  for (const group of groups.values()) {
    const said = group.flatMap((r) => {
      const t = r.role && isRole(r.role) ? describeEvent(r.type, r.payload, r.role) : null;
      return t ? [{ row: r, text: t }] : [];
    });
    // What the recipient may no longer read (a role changed, an account disabled) is not sent: done, unsaid.
    const withheld = group.filter((r) => !said.some((s) => s.row.id === r.id));
    if (withheld.length) await mark(db, withheld, "sent", "withheld: the recipient's role may no longer read it");
    if (!said.length) continue;
    try {
      await mailer.send(compose(group[0]!.recipient, said, base));
      await mark(
        db,
        said.map((s) => s.row),
        "sent",
        null,
      );
      sent += said.length;
    } catch (e) {
      failed += said.length;
      await retryLater(
        db,
        said.map((s) => s.row),
        e instanceof Error ? e.message : String(e),
      );
    }
  }
  return { claimed: rows.length, sent, failed };
}

async function mark(db: Db, rows: Claimed[], state: "sent", note: string | null): Promise<void> {
  await db.query(
    `UPDATE notification_deliveries SET state = $2, sent_at = now(), lease_until = NULL, last_error = $3,
            message_id = CASE WHEN $3::text IS NULL THEN $4 ELSE NULL END
      WHERE id = ANY($1::bigint[]) AND state = 'sending'`,
    [rows.map((r) => r.id), state, note, messageIdOf(rows)],
  );
}

async function retryLater(db: Db, rows: Claimed[], error: string): Promise<void> {
  // The transport's words, with any URL's credentials cut out (an SMTP URL may carry a password).
  const said = error.replace(/\/\/[^@\s/]+@/g, "//").slice(0, 300);
  logger.warn({ deliveries: rows.length, error: said }, "notification e-mail not sent; will retry");
  await db.query(
    `UPDATE notification_deliveries SET lease_until = NULL, last_error = $2,
            state = CASE WHEN now() - created_at > $3 * interval '1 millisecond' THEN 'failed' ELSE 'queued' END,
            due_at = now() + least(3600, 60 * power(2, greatest(attempts - 1, 0))) * interval '1 second'
      WHERE id = ANY($1::bigint[]) AND state = 'sending'`,
    [rows.map((r) => r.id), said, GIVE_UP_MS],
  );
}

const messageIdOf = (rows: Claimed[]) => `<notify-${rows.map((r) => r.id).join("-")}@brokerdesk>`;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function compose(to: string, items: { row: Claimed; text: EventText }[], base: string): Mail {
  const link = (href: string) => new URL(href, base).toString();
  const when = (r: Claimed) => `${new Date(r.event_at).toISOString().replace("T", " ").slice(0, 19)} UTC`;
  const messageId = messageIdOf(items.map((i) => i.row));
  if (items.length === 1 && items[0]!.row.mode === "immediate") {
    const { row, text } = items[0]!;
    return {
      to,
      subject: `Brokerdesk: ${text.title}`,
      text: `${text.title}\n\n${text.text}\n\nOpen: ${link(text.href)}\n\n${when(row)}\n`,
      html:
        `<p><strong>${escapeHtml(text.title)}</strong></p><p>${escapeHtml(text.text)}</p>` +
        `<p><a href="${escapeHtml(link(text.href))}">Open in Brokerdesk</a></p><p>${escapeHtml(when(row))}</p>`,
      messageId,
    };
  }
  const lines = items.map(({ row, text }) => `- ${text.title}: ${text.text} (${when(row)})\n  ${link(text.href)}`);
  const html = items
    .map(
      ({ row, text }) =>
        `<li><a href="${escapeHtml(link(text.href))}">${escapeHtml(text.title)}</a>: ` +
        `${escapeHtml(text.text)} <small>${escapeHtml(when(row))}</small></li>`,
    )
    .join("");
  return {
    to,
    subject: `Brokerdesk: your digest, ${items.length} notification${items.length === 1 ? "" : "s"}`,
    text: `Since your last digest:\n\n${lines.join("\n")}\n`,
    html: `<p>Since your last digest:</p><ul>${html}</ul>`,
    messageId,
  };
}
