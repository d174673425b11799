import { leverageResources } from "@/lib/api/leverage";
import { apiRoute } from "@/server/http/api-route";
import { leverageAccounts } from "@/server/workflows/leverage-accounts";

export const GET = apiRoute(leverageResources.accounts, async ({ db, credentials, session }) => ({
  items: await leverageAccounts(db, credentials, session.role),
}));
