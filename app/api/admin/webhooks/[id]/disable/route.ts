import { webhookResources } from "@/lib/api/notifications/webhooks";
import { apiRoute } from "@/server/http/api-route";
import { disableWebhook } from "@/server/notifications/webhook-endpoints";

export const POST = apiRoute(webhookResources.disable, ({ db, params }) => disableWebhook(db, params.id));
