import { webhookResources } from "@/lib/api/notifications/webhooks";
import { apiRoute } from "@/server/http/api-route";
import { approveWebhook } from "@/server/notifications/webhook-endpoints";

export const POST = apiRoute(webhookResources.approve, ({ db, session, params }) =>
  approveWebhook(db, session, params.id),
);
