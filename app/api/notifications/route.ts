import { notificationResources } from "@/lib/api/notifications";
import { apiRoute } from "@/server/http/api-route";
import { inbox } from "@/server/notifications/inbox";

export const GET = apiRoute(notificationResources.inbox, ({ db, session }) => inbox(db, session));
