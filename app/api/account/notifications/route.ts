import { preferenceResources } from "@/lib/api/notifications";
import { apiRoute } from "@/server/http/api-route";
import { getPreferences, savePreferences } from "@/server/notifications/preferences";

export const GET = apiRoute(preferenceResources.preferences, ({ db, session }) => getPreferences(db, session));
export const PUT = apiRoute(preferenceResources.savePreferences, ({ db, session, input }) =>
  savePreferences(db, session, input),
);
