// Security edges that need an instance of their own (e2e/support/second-instance.ts): named platform
// keys configured (READONLY and RISKUNIT, the simulator's demo key values), and an audit log that no other
// spec has written anonymous refusals into, so this spec's are the only ones of its minute.
import type { APIRequestContext } from "@playwright/test";
import { proxyPath } from "./support/envelope";
import { freePort } from "./support/processes";
import { startInstance, type Instance } from "./support/second-instance";
import { sameOrigin, signInApi, type DemoRole } from "./support/staff";
import { expect, test } from "./support/test";

type ErrorBody = { error: { code: string; message: string; fieldErrors?: Record<string, string[]> } };
type AuditRow = {
  id: number;
  actor: string;
  action: string;
  target: string | null;
  ip: string | null;
  requestId: string | null;
  detail: Record<string, unknown> | null;
};

let instance: Instance;
let simPort: number;

// The simulator's demo values for these keys (server/simulator/keys.ts): the embedded simulator takes them
// from the same variables, so Brokerdesk's named keys are real keys of the simulated accounts.
const NAMED_KEYS = {
  PLATFORM_KEY_READONLY_API_KEY: "bd_demo_read_only",
  PLATFORM_KEY_READONLY_API_SECRET: "bd-demo-secret-read-only",
  PLATFORM_KEY_READONLY_API_PASSPHRASE: "bd-demo-passphrase",
  PLATFORM_KEY_RISKUNIT_API_KEY: "bd_demo_risk_unit",
  PLATFORM_KEY_RISKUNIT_API_SECRET: "bd-demo-secret-risk-unit",
  PLATFORM_KEY_RISKUNIT_API_PASSPHRASE: "bd-demo-passphrase",
};

test.beforeAll(async () => {
  test.setTimeout(120_000);
  simPort = await freePort();
  instance = await startInstance("edges", { ...NAMED_KEYS, SIM_PORT: String(simPort) });
});

test.afterAll(async () => {
  await instance?.stop();
});

async function as(
  playwright: { request: { newContext(o: { baseURL?: string }): Promise<APIRequestContext> } },
  role: DemoRole | null,
): Promise<APIRequestContext> {
  const ctx = await playwright.request.newContext({ baseURL: instance.baseURL });
  if (role) await signInApi(ctx, role);
  return ctx;
}

async function simRequests(ctx: APIRequestContext, op: string): Promise<number> {
  const s = (await (await ctx.get(`http://127.0.0.1:${simPort}/__sim/stats`)).json()) as {
    operations: Record<string, { requests: number } | undefined>;
  };
  return s.operations[op]?.requests ?? 0;
}

async function audit(ctx: APIRequestContext, query: string): Promise<AuditRow[]> {
  const res = await ctx.get(`/api/audit?${query}&limit=500`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { rows: AuditRow[] }).rows;
}

test("[edges][anonymous] anonymous refusals: a path over 512 characters is recorded (cut), a flood adds one row and later one count, never a row each", async ({
  playwright,
}) => {
  test.setTimeout(150_000);
  const anonymous = await as(playwright, null);
  // The very first anonymous refusal of this instance: its own row. The path is 600 characters (was 401 with no row).
  const longPath = `/api/withdrawals/${"b".repeat(583)}`;
  expect(longPath.length).toBe(600);
  expect((await anonymous.get(longPath)).status()).toBe(401);
  const flood = 100;
  const paths = ["/api/audit", "/api/sub-accounts", "/api/withdrawals", proxyPath("fills.list")];
  for (let i = 0; i < flood; i++) expect((await anonymous.get(paths[i % paths.length]!)).status()).toBe(401);
  await anonymous.dispose();

  const admin = await as(playwright, "admin");
  const rows = await audit(admin, "actor=anonymous&action=request.refused");
  // One row for the address's first refusal of the minute; a second only if the flood crossed a minute's end.
  expect(rows.length, JSON.stringify(rows.map((r) => r.target?.slice(0, 40)))).toBeGreaterThanOrEqual(1);
  expect(rows.length).toBeLessThanOrEqual(2);
  const first = rows.at(-1)!;
  expect(first.target!.length).toBe(512);
  expect(first.target).toMatch(/^\/api\/withdrawals\/bbbb.*…\[cut from 600 characters\]$/);
  expect(first.detail).toMatchObject({ status: 401, code: "unauthenticated" });

  // The counts are written when the minute ends (a timer): the rows and the counts add up to every refusal.
  let aggregates: AuditRow[] = [];
  await expect
    .poll(
      async () => {
        aggregates = await audit(admin, "actor=anonymous&action=request.refused.aggregate");
        return aggregates.reduce((n, r) => n + Number(r.detail?.count ?? 0), 0) + rows.length;
      },
      { timeout: 80_000, intervals: [2_000] },
    )
    .toBe(flood + 1);
  const agg = aggregates[0]!;
  expect(agg.ip).toBe(first.ip);
  expect(agg.detail).toMatchObject({
    codes: { unauthenticated: expect.any(Number) },
    paths: expect.any(Array),
    from: expect.any(String),
    to: expect.any(String),
  });
  await admin.dispose();
});

test("[edges][keys] a named platform key is for lead and admin: others get 403 platform_key_forbidden, audited, and nothing is sent", async ({
  playwright,
}) => {
  const now = Date.now();
  const fills = `${proxyPath("fills.list")}?symbol=BTCUSDT&startTime=${now - 86_400_000}&endTime=${now}`;
  const lead = await as(playwright, "lead");
  const before = await simRequests(lead, "fills.list");
  for (const role of ["broker", "compliance"] as const) {
    const ctx = await as(playwright, role);
    const res = await ctx.get(fills, { headers: { "x-platform-key": "riskunit" } });
    expect(res.status(), await res.text()).toBe(403);
    const body = (await res.json()) as ErrorBody;
    expect(body.error.code).toBe("platform_key_forbidden");
    expect(body.error.message).toBe(
      `Your role (${role}) may not use the platform key "riskunit"; it is for lead, admin`,
    );
    // The main key (no header) is theirs as the permission says.
    expect((await ctx.get(fills)).status()).toBe(200);
    // An export naming the key is refused alike.
    const exp = await ctx.post("/api/exports", {
      headers: sameOrigin(instance.baseURL),
      data: {
        operation: "fills.list",
        key: "riskunit",
        params: { symbol: "BTCUSDT", startTime: String(now - 86_400_000), endTime: String(now) },
      },
    });
    expect(exp.status()).toBe(403);
    expect(((await exp.json()) as ErrorBody).error.code).toBe("platform_key_forbidden");
    await ctx.dispose();
  }
  // Two main-key reads went out (one per role); none with the refused key.
  expect(await simRequests(lead, "fills.list")).toBe(before + 2);
  const own = await lead.get(fills, { headers: { "x-platform-key": "riskunit" } });
  expect(own.status(), await own.text()).toBe(200);
  expect(await simRequests(lead, "fills.list")).toBe(before + 3);

  const refusals = await audit(lead, `action=request.refused&from=${now - 1_000}`);
  for (const actor of ["broker@demo.brokerdesk", "compliance@demo.brokerdesk"]) {
    expect(refusals.filter((r) => r.actor === actor && r.detail?.code === "platform_key_forbidden").length, actor).toBe(
      2,
    );
  }
  await lead.dispose();
});

test("[edges][keys] E9 with the read-only key is refused on key (422) before anything is sent, by the proxy as by the client (was the mirror's workflow_route, and 40014 from the platform through the client)", async ({
  playwright,
}) => {
  const lead = await as(playwright, "lead");
  const before = await simRequests(lead, "riskUnits.bind");
  const res = await lead.post(proxyPath("riskUnits.bind"), {
    headers: { ...sameOrigin(instance.baseURL), "x-platform-key": "readonly" },
    data: { uid: "5481892322", riskUnitId: "5481892300", operate: "bind" },
  });
  expect(res.status(), await res.text()).toBe(422);
  const body = (await res.json()) as ErrorBody;
  expect(body.error.fieldErrors?.key?.[0]).toMatch(
    /"readonly" is read-only: E9 \(riskUnits\.bind\) changes something on the platform/,
  );
  expect(await simRequests(lead, "riskUnits.bind")).toBe(before);
  // It still reads.
  const now = Date.now();
  const read = await lead.get(`${proxyPath("fills.list")}?startTime=${now - 86_400_000}&endTime=${now}`, {
    headers: { "x-platform-key": "readonly" },
  });
  expect(read.status(), await read.text()).toBe(200);
  await lead.dispose();
});
