import { webhookResources } from "@/lib/api/notifications/webhooks";
import { apiRoute } from "@/server/http/api-route";
import { createWebhook, listWebhooks, webhookAuditInput } from "@/server/notifications/webhook-endpoints";

export const GET = apiRoute(webhookResources.list, ({ db }) => listWebhooks(db));

// The secret is answered once; the audit outcome keeps the endpoint, not the secret; a Slack or Teams URL (a
// credential) is kept by its host and fingerprint only, in the intent as in the outcome.
export const POST = apiRoute(webhookResources.create, ({ db, input, session }) => createWebhook(db, session, input), {
  auditInput: webhookAuditInput,
});
