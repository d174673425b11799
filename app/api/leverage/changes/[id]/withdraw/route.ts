import { leverageResources } from "@/lib/api/leverage";
import { apiRoute } from "@/server/http/api-route";
import { withdrawLeverageChange } from "@/server/leverage/changes";

export const POST = apiRoute(leverageResources.withdraw, ({ db, session, params }) =>
  withdrawLeverageChange(db, session, params.id),
);
