// The proxy's mirrors of E6 and E9 must not change the platform behind Brokerdesk's back (no registry entry,
// no binding row, audit rows without a target): they check their input like any proxy route, then refuse with
// a pointer to the workflow route, as E5's mirror does; nothing reaches the platform. The workflow routes do
// the same changes and record them.
import { expect, test } from "./support/test";
import { proxyPath } from "./support/envelope";
import { opStats, subUid } from "./support/faults";
import { sameOrigin, signInApi, simControlUrl } from "./support/staff";

type ErrorBody = { error: { code: string; message: string; fieldErrors?: Record<string, string[]> } };
type AuditRow = { action: string; outcome: string; target: string | null; detail: { code?: string } | null };

async function auditRows(
  request: import("@playwright/test").APIRequestContext,
  action: string,
  since: number,
): Promise<AuditRow[]> {
  const res = await request.get(`/api/audit?action=${action}&from=${since}&limit=50`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { rows: AuditRow[] }).rows;
}

test.beforeEach(async ({ request }) => signInApi(request, "lead"));

test("[subaccounts.create][mirror] E6 through the proxy is refused with a pointer to /api/sub-accounts; nothing is created", async ({
  request,
  baseURL,
}) => {
  const since = Date.now();
  const e6Before = await opStats(request, "subaccounts.create");
  const name = `e2emirror${Date.now()}@example.com`;
  const res = await request.post(proxyPath("subaccounts.create"), {
    headers: sameOrigin(baseURL),
    data: { subaccountName: name },
  });
  expect(res.status()).toBe(403);
  const body = (await res.json()) as ErrorBody;
  expect(body.error.code).toBe("workflow_route");
  expect(body.error.message).toContain("/api/sub-accounts");
  expect((await opStats(request, "subaccounts.create")).requests).toBe(e6Before.requests);
  const registry = (await (await request.get("/api/sub-accounts")).json()) as {
    items: { subaccountName: string | null }[];
  };
  expect(registry.items.some((s) => s.subaccountName === name)).toBe(false);
  // The refusal is on record with the path it was made on; no intent was written for a call never made.
  expect(
    (await auditRows(request, "request.refused", since)).some(
      (r) => r.target === proxyPath("subaccounts.create") && r.detail?.code === "workflow_route",
    ),
  ).toBe(true);
  expect(await auditRows(request, "subaccounts.create", since)).toEqual([]);

  // Invalid input still names its field first, as on every proxy route.
  const bad = await request.post(proxyPath("subaccounts.create"), {
    headers: sameOrigin(baseURL),
    data: { subaccountName: "not-an-email" },
  });
  expect(bad.status()).toBe(422);
  expect(Object.keys(((await bad.json()) as ErrorBody).error.fieldErrors ?? {})).toEqual(["subaccountName"]);
});

test("[subaccounts.create][workflow] the form's route creates it, records it in the registry and audits it with its target", async ({
  request,
  baseURL,
}) => {
  const since = Date.now();
  const name = `e2eflow${Date.now()}@example.com`;
  const res = await request.post("/api/sub-accounts", { headers: sameOrigin(baseURL), data: { subaccountName: name } });
  expect(res.status(), await res.text()).toBe(200);
  const { entry } = (await res.json()) as { entry: { subUid: string; source: string } };
  expect(entry.source).toBe("created");
  const registry = (await (await request.get("/api/sub-accounts")).json()) as { items: { subUid: string }[] };
  expect(registry.items.map((s) => s.subUid)).toContain(entry.subUid);
  const rows = await auditRows(request, "subaccounts.create", since);
  expect(rows.map((r) => [r.outcome, r.target]).sort()).toEqual([
    ["intent", `subaccount:${name}`],
    ["success", `subaccount:${name}`],
  ]);
});

test("[riskUnits.bind][mirror] E9 through the proxy is refused with a pointer to /api/risk-units; nothing is bound", async ({
  request,
  baseURL,
}) => {
  const since = Date.now();
  const keys = (await (await request.get(simControlUrl("keys"))).json()) as { riskUnit: { uid: string } };
  const uid = await subUid(request, "desk02");
  const e9Before = await opStats(request, "riskUnits.bind");
  const res = await request.post(proxyPath("riskUnits.bind"), {
    headers: sameOrigin(baseURL),
    data: { riskUnitId: keys.riskUnit.uid, uid, operate: "bind" },
  });
  expect(res.status()).toBe(403);
  const body = (await res.json()) as ErrorBody;
  expect(body.error.code).toBe("workflow_route");
  expect(body.error.message).toContain("/api/risk-units");
  expect((await opStats(request, "riskUnits.bind")).requests).toBe(e9Before.requests);
  const bindings = (await (await request.get("/api/risk-units")).json()) as {
    items: { uid: string; state: string; boundAt: string }[];
  };
  expect(bindings.items.filter((b) => b.uid === uid && Date.parse(b.boundAt) >= since)).toEqual([]);
  expect(
    (await auditRows(request, "request.refused", since)).some(
      (r) => r.target === proxyPath("riskUnits.bind") && r.detail?.code === "workflow_route",
    ),
  ).toBe(true);
  expect(await auditRows(request, "riskUnits.bind", since)).toEqual([]);
});
