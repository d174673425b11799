// Separation of duties over HTTP: no one person switches a monitoring control off. Retiring an active rule is
// proposed by one person and confirmed by another (alone: 403 two_person_rule; by its proposer: 403
// own_request; by an account an admin just made: 403 approver_on_hold); a holding rule's snooze is a request a
// second person approves; a version that weakens the active one is activated only when the weakening is
// confirmed (422 confirmation_mismatch, naming what weakens). The workflow-level matrix, with stale factors and
// the policy's decisions, is server/monitoring/separation.test.ts.
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/test";
import { sameOrigin, signInApi, signInWith, type DemoRole } from "./support/staff";

type Version = {
  id: string;
  ruleId: string;
  state: string;
  retireRequestedBy: string | null;
  weakens: string[] | null;
};
type Refusal = { error: { code: string; message: string } };

test("[security][separation-of-duties] retiring, snoozing a holding rule and weakening a rule each take two people", async ({
  baseURL,
}) => {
  test.setTimeout(60_000);
  const headers = sameOrigin(baseURL);
  const as = async (role: DemoRole): Promise<APIRequestContext> => {
    const ctx = await playwrightRequest.newContext({ baseURL });
    await signInApi(ctx, role);
    return ctx;
  };
  const [compliance, admin] = [await as("compliance"), await as("admin")];
  const post = async (ctx: APIRequestContext, path: string, data: unknown = {}) => {
    const res = await ctx.post(path, { headers, data });
    return { status: res.status(), body: (await res.json()) as Version & Refusal };
  };
  const refused = async (ctx: APIRequestContext, path: string, data: unknown, status: number, code: string) => {
    const r = await post(ctx, path, data);
    expect([r.status, r.body.error?.code], JSON.stringify(r.body)).toEqual([status, code]);
    return r.body.error.message;
  };
  const name = `sod ${Date.now()}`;
  const draft = async (holds: boolean, minAmount: string) =>
    (
      await post(compliance, "/api/monitoring/rules", {
        name,
        kind: "large_deposit",
        severity: "high",
        holds,
        params: { unit: "coin", coin: "USDT", minAmount },
      })
    ).body;

  // A holding rule, drafted by compliance and activated by the admin.
  const v1 = await draft(true, "10000");
  expect((await post(admin, `/api/monitoring/rule-versions/${v1.id}/activate`)).status).toBe(200);

  // A weaker version: the activation says what weakens and needs it confirmed.
  const weak = await draft(false, "50000");
  const said = await refused(
    admin,
    `/api/monitoring/rule-versions/${weak.id}/activate`,
    {},
    422,
    "confirmation_mismatch",
  );
  expect(said).toContain("no longer holds withdrawals; minAmount 10000 → 50000");

  // Retiring: alone, refused; proposed by the admin, not confirmed by the admin, nor by an account the admin made.
  const retire = `/api/monitoring/rule-versions/${v1.id}/retire`;
  await refused(admin, retire, {}, 403, "two_person_rule");
  const proposed = await post(admin, `/api/monitoring/rule-versions/${v1.id}/propose-retirement`, {
    reason: "replaced by a new version",
  });
  expect([proposed.status, proposed.body.state, proposed.body.retireRequestedBy]).toEqual([
    200,
    "active",
    "admin@demo.brokerdesk",
  ]);
  await refused(admin, retire, {}, 403, "own_request");
  const made = { email: `sod-c-${Date.now()}@brokerdesk.test`, name: "Made Compliance", role: "compliance" };
  const password = "the-admin-chose-this-3";
  const create = await admin.post("/api/admin/users", { headers, data: { ...made, password } });
  expect(create.status(), await create.text()).toBe(200);
  const asMade = await playwrightRequest.newContext({ baseURL });
  expect(await signInWith(asMade, made.email, password)).toBe(true);
  expect(await refused(asMade, retire, {}, 403, "approver_on_hold")).toMatch(/^Separation of duties: /);
  const done = await post(compliance, retire);
  expect([done.status, done.body.state]).toEqual([200, "retired"]);

  // A holding rule's snooze: a request, approved by someone other than its requester.
  const v2 = await draft(true, "20000");
  expect((await post(admin, `/api/monitoring/rule-versions/${v2.id}/activate`)).status).toBe(200);
  const until = new Date(Date.now() + 86_400_000).toISOString();
  const snooze = await compliance.post("/api/monitoring/snoozes", {
    headers,
    data: { ruleId: v2.ruleId, subUid: "1", until, reason: "known desk" },
  });
  const asked = (await snooze.json()) as { id: string; state: string };
  expect([snooze.status(), asked.state]).toEqual([200, "requested"]);
  const waiting = (await (await admin.get("/api/monitoring/snooze-requests")).json()) as { items: { id: string }[] };
  expect(waiting.items.map((r) => r.id)).toContain(asked.id);
  await refused(compliance, `/api/monitoring/snooze-requests/${asked.id}/approve`, {}, 403, "own_request");
  await refused(asMade, `/api/monitoring/snooze-requests/${asked.id}/approve`, {}, 403, "approver_on_hold");
  const approved = await admin.post(`/api/monitoring/snooze-requests/${asked.id}/approve`, { headers, data: {} });
  expect([approved.status(), ((await approved.json()) as { state: string }).state]).toEqual([200, "approved"]);
  for (const ctx of [compliance, admin, asMade]) await ctx.dispose();
});
