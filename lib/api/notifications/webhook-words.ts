// Webhook endpoints in words, without zod: the page's options before any call.
export const WEBHOOK_FORMATS = ["standard", "slack", "teams"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const WEBHOOK_FORMAT_WORDS: Record<WebhookFormat, string> = {
  standard: "Standard Webhooks JSON (signed; for your own receiver)",
  slack: "Slack incoming webhook ({text})",
  teams: "Microsoft Teams Workflows (adaptive card)",
};

/** An endpoint as the page names it: a Slack or Teams URL (a credential) by its host and fingerprint only. */
export function endpointLabel(e: { url: string; urlFingerprint: string | null }): string {
  return e.urlFingerprint ? `${e.url} (SHA-256 ${e.urlFingerprint})` : e.url;
}
