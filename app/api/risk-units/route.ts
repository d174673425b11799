import { catalog } from "@/lib/platform/catalog";
import { apiRoute } from "@/server/http/api-route";
import { getPlatform } from "@/server/platform/runtime";
import { bindOrUnbind, listBindings } from "@/server/workflows/risk-units";

const op = catalog["riskUnits.bind"];

export const GET = apiRoute({ permission: "riskUnits.read" }, async ({ db }) => ({ items: await listBindings(db) }));

export const POST = apiRoute(
  {
    permission: op.permission,
    input: op.request,
    audit: { action: "riskUnits.bind", target: (i) => `${i.operate} ${i.uid} → ${i.riskUnitId ?? "own unit"}` },
    check: (input) => op.keyRule?.(input, "broker-main") ?? null,
  },
  async ({ db, session, input }) => bindOrUnbind(db, (await getPlatform()).client, session, input),
);
