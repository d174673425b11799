import { webhookResources } from "@/lib/api/notifications/webhooks";
import { apiRoute } from "@/server/http/api-route";
import { listWebhookDeliveries } from "@/server/notifications/webhook-endpoints";

export const GET = apiRoute(webhookResources.deliveries, ({ db, params }) => listWebhookDeliveries(db, params.id));
