import { webhookResources } from "@/lib/api/notifications/webhooks";
import { apiRoute } from "@/server/http/api-route";
import { rotateWebhookSecret } from "@/server/notifications/webhook-endpoints";

export const POST = apiRoute(webhookResources.rotate, ({ db, params }) => rotateWebhookSecret(db, params.id));
