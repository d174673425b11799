import { monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import type { RuleSpec } from "@/lib/api/monitoring/rule-kinds";
import { notEvaluableCounts } from "@/server/monitoring/coverage";
import { draftRule, listRuleVersions } from "@/server/monitoring/rule";

// Each active version says how many sub-accounts it cannot judge yet (server/monitoring/coverage.ts).
export const GET = apiRoute(m.rules, async ({ db }) => {
  const { items } = await listRuleVersions(db);
  const active = items.filter((v) => v.state === "active");
  const counts = await notEvaluableCounts(
    db,
    active.map((v) => ({ id: v.id, spec: { kind: v.kind, params: v.params } as RuleSpec })),
  );
  return { items: items.map((v) => (v.state === "active" ? { ...v, notEvaluable: counts[v.id] ?? 0 } : v)) };
});

export const POST = apiRoute(m.draft, ({ db, session, input }) => draftRule(db, session, input));
