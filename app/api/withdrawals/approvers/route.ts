import { userResources } from "@/lib/api/admin/users";
import { env } from "@/lib/env";
import { formatDuration } from "@/lib/format";
import { approverStanding } from "@/server/auth/approver-standing";
import { listApprovers } from "@/server/auth/users";
import { apiRoute } from "@/server/http/api-route";

// Shown to the leads beside the approval queue: who may approve now, and who is on hold and why.
export const GET = apiRoute(userResources.approvers, async ({ db }) => {
  const now = Date.now();
  return {
    approvers: (await listApprovers(db)).map((u) => approverStanding(u, now, env.approverCoolOffMs)),
    coolOff: formatDuration(env.approverCoolOffMs),
  };
});
