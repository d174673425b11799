import { webhookResources } from "@/lib/api/notifications/webhooks";
import { apiRoute } from "@/server/http/api-route";
import { resendWebhookDelivery } from "@/server/notifications/webhook-endpoints";

export const POST = apiRoute(webhookResources.resend, ({ db, params }) =>
  resendWebhookDelivery(db, params.id, params.delivery),
);
