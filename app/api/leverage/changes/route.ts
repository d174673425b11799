import { leverageResources } from "@/lib/api/leverage";
import { apiRoute } from "@/server/http/api-route";
import { listLeverageChanges } from "@/server/leverage/changes";

export const GET = apiRoute(leverageResources.changes, ({ db, input }) => listLeverageChanges(db, input));
