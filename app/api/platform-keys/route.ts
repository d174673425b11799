import { platformKeyResources } from "@/lib/api/platform-keys";
import { env } from "@/lib/env";
import { apiRoute } from "@/server/http/api-route";
import { choosableKeys } from "@/server/workflows/platform-keys";

export const GET = apiRoute(platformKeyResources.list, async ({ session, credentials }) => ({
  // The ledger walks the environment's keys (LEDGER_TRADE_KEYS, else all of them), never a key held in the database.
  keys: choosableKeys(credentials, session.role, env.ledger.tradeKeys ?? credentials.environmentNames()),
}));
