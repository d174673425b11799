import { leverageResources } from "@/lib/api/leverage";
import { catalog, keyRefusal } from "@/lib/platform/catalog";
import { apiRoute } from "@/server/http/api-route";
import { keyChoiceRefusal } from "@/server/http/platform-route";
import { changeLeverage } from "@/server/leverage/changes";

// The single form's change (not the generic proxy): the leverage policy judges it before anything is sent, and
// a set the platform confirmed is written to the record with its reason and audit intent.
export const POST = apiRoute(
  leverageResources.change,
  async ({ db, input, session, requestId, ip, platform, signal }) =>
    changeLeverage(db, await platform(), session, input, { requestId, ip, signal }),
  {
    authorize: (input, { session, credentials }) => keyChoiceRefusal(credentials, input.key, session.role),
    check: (input, { credentials }) => {
      if (!credentials.names().includes(input.key))
        return { key: `No platform key named "${input.key}" is configured` };
      const op = catalog["leverage.set"];
      const refused = keyRefusal(op, credentials.get(input.key).role, input.key);
      if (refused) return { key: refused };
      return op.keyRule?.(input as never, credentials.get(input.key).role) ?? null;
    },
  },
);
