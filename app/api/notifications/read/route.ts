import { notificationResources } from "@/lib/api/notifications";
import { apiRoute } from "@/server/http/api-route";
import { markRead } from "@/server/notifications/inbox";

export const POST = apiRoute(notificationResources.markRead, ({ db, session, input }) => markRead(db, session, input));
