import { exportResources } from "@/lib/api/exports";
import { apiRoute } from "@/server/http/api-route";
import { keyChoiceRefusal } from "@/server/http/platform-route";
import { exportEvents } from "@/server/workflows/export-run";

// The entry's permission rule checks the permission of the operation exported (deposits.read for
// deposits.list, ...) before anything else, as on every route; the run audits its own intent and outcome.
export const POST = apiRoute(
  exportResources.run,
  async ({ db, input, session, requestId, ip, platform }) =>
    exportEvents({
      db,
      client: await platform(),
      operation: input.operation,
      params: input.params,
      key: input.key,
      resume: input.resume,
      actor: { email: session.email, role: session.role },
      requestId,
      ip,
    }),
  // A named key only for the roles that may use it, as on the proxy routes.
  { authorize: (input, { session, credentials }) => keyChoiceRefusal(credentials, input.key, session.role) },
);
