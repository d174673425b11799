import { policyResources } from "@/lib/api/policy";
import { apiRoute } from "@/server/http/api-route";
import { dryRun } from "@/server/policy/dry-run";

export const POST = apiRoute(policyResources.dryRun, ({ db, input }) => dryRun(db, input));
