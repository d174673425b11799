import "server-only";
// A Slack or Teams endpoint's URL is its credential: whoever has it posts to the channel. So it is kept as a webhook
// secret is (sealed under KEY_SEALING_SECRET, bound to the endpoint's id: ./webhook-sign.ts), and what is stored in
// the clear, answered, shown and audited is only its scheme and host ("https://hooks.slack.com/…") and a fingerprint
// (the first 8 hex of the SHA-256 of the whole URL), by which an admin tells two endpoints of one host apart. A
// standard endpoint's URL is an address, not a credential (it verifies the signature): kept as it is.
import { createHash } from "node:crypto";
import type { WebhookFormat } from "@/lib/api/notifications/webhooks";
import type { Queryable } from "@/server/db";
import { openWebhookSecret, sealWebhookSecret } from "./webhook-sign";

/** Whether the format's URL is itself the credential (Slack's incoming webhooks, Teams' Workflows). */
export const urlIsSecret = (format: WebhookFormat | string) => format === "slack" || format === "teams";

/** The first 8 hex of the SHA-256 of the whole URL. */
export const urlFingerprint = (url: string) => createHash("sha256").update(url).digest("hex").slice(0, 8);

/** What may be shown of a URL of the format: a secret one's scheme and host only. */
export function shownWebhookUrl(url: string, format: WebhookFormat | string): string {
  if (!urlIsSecret(format)) return url;
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return "(not a URL)";
  }
}

const bound = (endpointId: string) => `url:${endpointId}`;

/** The columns an endpoint's URL is stored in: a secret one sealed, with its shown form and fingerprint. */
export function storedWebhookUrl(url: string, format: WebhookFormat, endpointId: string) {
  if (!urlIsSecret(format)) return { url, sealed: null, fingerprint: null };
  return {
    url: shownWebhookUrl(url, format),
    sealed: sealWebhookSecret(url, bound(endpointId)),
    fingerprint: urlFingerprint(url),
  };
}

/** The URL to send to: a sealed one opened (throws when it does not open). */
export function webhookUrlToSend(r: { url: string; url_sealed: string | null; endpoint_id: string }): string {
  return r.url_sealed === null ? r.url : openWebhookSecret(r.url_sealed, bound(r.endpoint_id));
}

/**
 * Seals the URLs of Slack and Teams endpoints added before URLs were sealed (migration 0181 could not: the key is
 * not the database's); run at the notification jobs' start. Answers how many it sealed.
 */
export async function sealPlainWebhookUrls(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ id: string; url: string; format: WebhookFormat }>(
    `SELECT id::text, url, format FROM webhook_endpoints WHERE format IN ('slack', 'teams') AND url_sealed IS NULL`,
  );
  for (const r of rows) {
    const s = storedWebhookUrl(r.url, r.format, r.id);
    await db.query(
      `UPDATE webhook_endpoints SET url = $2, url_sealed = $3, url_fingerprint = $4
        WHERE id = $1 AND url_sealed IS NULL`,
      [r.id, s.url, s.sealed, s.fingerprint],
    );
  }
  return rows.length;
}
