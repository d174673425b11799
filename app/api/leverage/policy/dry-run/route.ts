import { leveragePolicyResources } from "@/lib/api/leverage-policy";
import { apiRoute } from "@/server/http/api-route";
import { leverageDryRun } from "@/server/leverage/policy/dry-run";

export const POST = apiRoute(leveragePolicyResources.dryRun, ({ db, input }) => leverageDryRun(db, input));
