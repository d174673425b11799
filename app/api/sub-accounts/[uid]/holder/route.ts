import { holderResources } from "@/lib/api/registry/holder";
import { apiRoute } from "@/server/http/api-route";
import { getHolder, setHolder } from "@/server/workflows/travel-rule-parties";

export const GET = apiRoute(holderResources.holder, ({ db, params }) => getHolder(db, params.uid));

export const PUT = apiRoute(holderResources.setHolder, ({ db, session, params, input }) =>
  setHolder(db, session, params.uid, input.holder),
);
