import { expect, test } from "./support/test";
import { catalog } from "../lib/platform/catalog";
import { can, ROLES } from "../lib/rbac";
import { proxyPath } from "./support/envelope";
import { DEMO, sameOrigin, signInApi, type DemoRole } from "./support/staff";

const ops = Object.values(catalog);
const now = Date.now();

/** A valid GET input per read operation, so an allowed call must come back with the platform's data. */
const validGet = (uid: string): Record<string, Record<string, string>> => ({
  "deposits.list": { userId: uid, startTime: String(now - 86_400_000), endTime: String(now) },
  "subaccounts.assets": { subUid: uid },
  "planOrders.history": { symbol: "BTCUSDT", startTime: String(now - 7 * 86_400_000), endTime: String(now) },
  "fills.list": { symbol: "BTCUSDT" },
  "rebates.get": { uid },
  "market.trades": { symbol: "BTCUSDT", limit: "5" },
  "oiLimits.list": { productType: "USDT-FUTURES" },
});

/** The first sub-account of the registry (seeded from the simulator). */
async function firstSubUid(request: import("@playwright/test").APIRequestContext): Promise<string> {
  const res = await request.get("/api/sub-accounts");
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { items: { subUid: string }[] };
  expect(body.items.length).toBeGreaterThan(0);
  return body.items[0]!.subUid;
}

test.describe("[rbac][anonymous] every API route refuses without a session", () => {
  for (const op of ops) {
    test(`[rbac][anonymous] ${op.id} → 401`, async ({ request, baseURL }) => {
      const res =
        op.method === "GET"
          ? await request.get(proxyPath(op.id))
          : await request.post(proxyPath(op.id), { headers: sameOrigin(baseURL), data: {} });
      expect(res.status()).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
    });
  }
});

for (const role of ROLES as readonly DemoRole[]) {
  test.describe(`[rbac][${role}] proxy routes`, () => {
    test.beforeEach(async ({ request }) => signInApi(request, role));

    for (const op of ops) {
      const allowed = can(role, op.permission) && op.id !== "withdrawals.submit";
      test(`[rbac][${role}] ${op.id} ${allowed ? "allowed" : "refused"}`, async ({ request, baseURL }) => {
        if (op.method === "GET") {
          const res = await request.get(proxyPath(op.id), { params: validGet(await firstSubUid(request))[op.id] });
          if (allowed) {
            expect(res.status(), await res.text()).toBe(200);
            const body = (await res.json()) as { code: string; msg: string; requestTime: number };
            expect(body.code).toBe("00000");
            expect(body.msg).toBe("success");
          } else {
            expect(res.status()).toBe(403);
          }
        } else {
          // An allowed mutation with an empty body stops at validation (422): past the permission, nothing sent.
          const res = await request.post(proxyPath(op.id), { headers: sameOrigin(baseURL), data: {} });
          expect(res.status(), await res.text()).toBe(allowed ? 422 : 403);
        }
      });
    }
  });
}

test.describe("[rbac][csrf] mutations need a same-origin JSON request", () => {
  test.beforeEach(async ({ request }) => signInApi(request, "lead"));
  const path = proxyPath("leverage.set");
  const body = { symbol: "BTCUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage: "10" };

  test("[rbac][csrf] no Origin → 403", async ({ request }) => {
    const res = await request.post(path, { headers: { "Content-Type": "application/json" }, data: body });
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("csrf");
  });
  test("[rbac][csrf] another Origin → 403", async ({ request }) => {
    const res = await request.post(path, {
      headers: { Origin: "https://evil.example", "Content-Type": "application/json" },
      data: body,
    });
    expect(res.status()).toBe(403);
  });
  test("[rbac][csrf] a form content type → 403", async ({ request, baseURL }) => {
    const res = await request.post(path, {
      headers: { Origin: new URL(baseURL!).origin, "Content-Type": "text/plain" },
      data: JSON.stringify(body),
    });
    expect(res.status()).toBe(403);
  });
  test("[rbac][csrf] same-origin JSON goes through, in the platform's envelope", async ({ request, baseURL }) => {
    const res = await request.post(path, { headers: sameOrigin(baseURL), data: body });
    expect(res.status(), await res.text()).toBe(200);
    const env = (await res.json()) as { code: string; data: { symbol: string; longLeverage: string } };
    expect(env.code).toBe("00000");
    expect(env.data.symbol).toBe("BTCUSDT");
  });
});

test("[rbac][input] invalid input → 422 naming the field, nothing sent", async ({ request }) => {
  await signInApi(request, "compliance");
  const res = await request.get(proxyPath("planOrders.history"), { params: { symbol: "BTCUSDT" } });
  expect(res.status()).toBe(422);
  const body = (await res.json()) as { error: { code: string; fieldErrors: Record<string, string[]> } };
  expect(body.error.code).toBe("invalid_input");
  expect(Object.keys(body.error.fieldErrors)).toEqual(expect.arrayContaining(["startTime", "endTime"]));
});

test("[rbac][demo] the demo accounts are the four roles", () => {
  expect(Object.keys(DEMO).sort()).toEqual([...ROLES].sort());
});

/** Brokerdesk's own resources: who may read them. */
const OWN_ROUTES = [
  { path: "/api/sub-accounts", permission: "subaccounts.read" },
  { path: "/api/sub-accounts/search", permission: "subaccounts.read" },
  { path: "/api/sub-accounts/registry", permission: "subaccounts.read" },
  { path: "/api/sub-accounts/names?uids=1", permission: "subaccounts.read" },
  { path: "/api/platform-keys?for=fills", permission: "fills.read" },
  { path: "/api/platform-keys?for=plan-orders", permission: "planOrders.read" },
  { path: "/api/ledger/fills", permission: "fills.read" },
  { path: "/api/ledger/plan-orders", permission: "planOrders.read" },
  { path: "/api/audit", permission: "audit.read" },
  { path: "/api/audit/export", permission: "audit.read" },
  { path: "/api/admin/users", permission: "users.read" },
  { path: "/api/admin/webhooks", permission: "webhooks.manage" },
  { path: "/api/withdrawals", permission: "withdrawals.read" },
  { path: "/api/withdrawals/export", permission: "withdrawals.read" },
  { path: "/api/withdrawals/summary", permission: "withdrawals.read" },
  { path: "/api/withdrawals/waiting", permission: "withdrawals.approve" },
  { path: "/api/risk-units", permission: "riskUnits.read" },
  { path: "/api/leverage/accounts", permission: "leverage.write" },
  { path: "/api/leverage/record", permission: "subaccounts.read" },
  { path: "/api/leverage/changes", permission: "leverage.write" },
  { path: "/api/policy", permission: "policy.read" },
  { path: "/api/leverage/policy", permission: "policy.read" },
  { path: "/api/monitoring/alerts", permission: "monitoring.read" },
  { path: "/api/monitoring/alerts/export", permission: "monitoring.read" },
  { path: "/api/monitoring/rules", permission: "monitoring.read" },
  { path: "/api/monitoring/snooze-requests", permission: "monitoring.read" },
  { path: "/api/monitoring/holds", permission: "withdrawals.read" },
  { path: "/api/ledger/timeline?subUid=1", permission: "monitoring.read" },
  { path: "/api/admin/keys", permission: "subaccountKeys.read" },
] as const;

/** Brokerdesk's own mutations: an allowed role with an empty body stops at validation (422), others at 403. */
const OWN_MUTATIONS = [
  { path: "/api/withdrawals", permission: "withdrawals.write" },
  { path: "/api/risk-units", permission: "riskUnits.write" },
  { path: "/api/leverage/set", permission: "leverage.write" },
  { path: "/api/sub-accounts", permission: "subaccounts.write" },
  { path: "/api/admin/users", permission: "users.write" },
  { path: "/api/admin/webhooks", permission: "webhooks.manage" },
  { path: "/api/policy", permission: "policy.write" },
  { path: "/api/policy/dry-run", permission: "policy.read" },
  { path: "/api/leverage/policy", permission: "policy.write" },
  { path: "/api/leverage/policy/dry-run", permission: "policy.read" },
  { path: "/api/monitoring/rules", permission: "monitoring.write" },
  { path: "/api/monitoring/snoozes", permission: "monitoring.write" },
  { path: "/api/monitoring/cases/assign", permission: "monitoring.write" },
  { path: "/api/monitoring/cases/close", permission: "monitoring.write" },
  { path: "/api/admin/keys", permission: "subaccountKeys.write" },
  { path: "/api/admin/keys/1/rotate", permission: "subaccountKeys.write" },
  { path: "/api/admin/keys/1/approve", permission: "subaccountKeys.approve" },
] as const;

test.describe("[rbac][own-mutations] Brokerdesk's own mutations", () => {
  for (const r of OWN_MUTATIONS) {
    test(`[rbac][anonymous] POST ${r.path} → 401`, async ({ request, baseURL }) => {
      expect((await request.post(r.path, { headers: sameOrigin(baseURL), data: {} })).status()).toBe(401);
    });
    for (const role of ROLES as readonly DemoRole[]) {
      const allowed = can(role, r.permission);
      test(`[rbac][${role}] POST ${r.path} ${allowed ? "allowed" : "refused"}`, async ({ request, baseURL }) => {
        await signInApi(request, role);
        const res = await request.post(r.path, { headers: sameOrigin(baseURL), data: {} });
        expect(res.status(), await res.text()).toBe(allowed ? 422 : 403);
      });
    }
  }
});

/** The Travel Rule's records (PUT): an allowed role with an empty body stops at validation (422), others at 403. */
const OWN_PUTS = [
  { path: "/api/sub-accounts/1/holder", permission: "subaccounts.write" },
  { path: "/api/ledger/deposits/1/originator", permission: "monitoring.write" },
] as const;

test.describe("[rbac][own-mutations] the Travel Rule's records", () => {
  for (const r of OWN_PUTS) {
    test(`[rbac][anonymous] PUT ${r.path} → 401`, async ({ request, baseURL }) => {
      expect((await request.put(r.path, { headers: sameOrigin(baseURL), data: {} })).status()).toBe(401);
    });
    for (const role of ROLES as readonly DemoRole[]) {
      const allowed = can(role, r.permission);
      test(`[rbac][${role}] PUT ${r.path} ${allowed ? "allowed" : "refused"}`, async ({ request, baseURL }) => {
        await signInApi(request, role);
        const res = await request.put(r.path, { headers: sameOrigin(baseURL), data: {} });
        expect(res.status(), await res.text()).toBe(allowed ? 422 : 403);
      });
    }
  }
});

test.describe("[rbac][own] Brokerdesk's own API routes", () => {
  for (const r of OWN_ROUTES) {
    test(`[rbac][anonymous] ${r.path} → 401`, async ({ request }) => {
      expect((await request.get(r.path)).status()).toBe(401);
    });
    for (const role of ROLES as readonly DemoRole[]) {
      const allowed = can(role, r.permission);
      test(`[rbac][${role}] ${r.path} ${allowed ? "allowed" : "refused"}`, async ({ request }) => {
        await signInApi(request, role);
        expect((await request.get(r.path)).status()).toBe(allowed ? 200 : 403);
      });
    }
  }
});

test.describe("[rbac][own] a withdrawal's Travel Rule name matches are compliance's (monitoring.read)", () => {
  const path = "/api/withdrawals/00000000-0000-4000-8000-000000000000/name-matches";
  test(`[rbac][anonymous] ${path} → 401`, async ({ request }) => {
    expect((await request.get(path)).status()).toBe(401);
  });
  for (const role of ROLES as readonly DemoRole[]) {
    const allowed = can(role, "monitoring.read");
    // Allowed, an unknown request is not found; refused, the role learns nothing, not even that.
    test(`[rbac][${role}] ${path} ${allowed ? "allowed" : "refused"}`, async ({ request }) => {
      await signInApi(request, role);
      expect((await request.get(path)).status()).toBe(allowed ? 404 : 403);
    });
  }
});

test.describe("[rbac][mfa] the second factor's own routes: every signed-in role, nobody else", () => {
  test("[rbac][anonymous] GET /api/account/mfa and POST /api/account/mfa/verify → 401", async ({
    request,
    baseURL,
  }) => {
    expect((await request.get("/api/account/mfa")).status()).toBe(401);
    expect((await request.post("/api/account/mfa/verify", { headers: sameOrigin(baseURL), data: {} })).status()).toBe(
      401,
    );
  });
  for (const role of ROLES as readonly DemoRole[]) {
    test(`[rbac][${role}] reads its own factors; an empty factor stops at validation`, async ({ request, baseURL }) => {
      await signInApi(request, role);
      const status = await request.get("/api/account/mfa");
      expect(status.status()).toBe(200);
      expect(((await status.json()) as { state: string; factors: unknown[] }).factors).toEqual([]);
      expect((await request.post("/api/account/mfa/verify", { headers: sameOrigin(baseURL), data: {} })).status()).toBe(
        422,
      );
      // Resetting someone's factors is an admin's (users.write).
      const reset = await request.post("/api/admin/users/00000000-0000-4000-8000-000000000000/factors/reset", {
        headers: sameOrigin(baseURL),
        data: {},
      });
      expect(reset.status()).toBe(can(role, "users.write") ? 404 : 403);
      const oneTime = await request.post("/api/admin/users/00000000-0000-4000-8000-000000000000/one-time-password", {
        headers: sameOrigin(baseURL),
        data: {},
      });
      expect(oneTime.status()).toBe(can(role, "users.write") ? 404 : 403);
    });
  }
});

test("[rbac][audit] refusals are recorded in the audit log with the reason", async ({ request }) => {
  await signInApi(request, "broker");
  expect((await request.get("/api/audit")).status()).toBe(403);
  await signInApi(request, "compliance");
  const res = await request.get("/api/audit", {
    params: { action: "request.refused", actor: DEMO.broker, limit: "5" },
  });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as {
    rows: { outcome: string; target: string; detail: { status: number; reason: string } }[];
  };
  const refusal = body.rows.find((r) => r.target === "/api/audit");
  expect(refusal?.outcome).toBe("refused");
  expect(refusal?.detail.status).toBe(403);
  expect(refusal?.detail.reason).toMatch(/audit\.read/);
});
