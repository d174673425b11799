import { webhookResources } from "@/lib/api/notifications/webhooks";
import { apiRoute } from "@/server/http/api-route";
import { setWebhookEvents } from "@/server/notifications/webhook-endpoints";

export const PUT = apiRoute(webhookResources.setEvents, ({ db, session, params, input }) =>
  setWebhookEvents(db, session, params.id, input.events),
);
