// Security edges, over real HTTP against the run's server and its embedded simulator: input that could
// give a 500 (a NUL), a 503 (a 5,000-character or %00 path segment) or a 502 (values the platform refuses
// after a call) is refused with a 4xx naming the field, and the simulator's counters show nothing was sent.
import type { APIRequestContext } from "@playwright/test";
import { proxyPath } from "./support/envelope";
import { subUid } from "./support/faults";
import { sameOrigin, signInApi, simControlUrl, type DemoRole } from "./support/staff";
import { expect, test } from "./support/test";

type ErrorBody = { error: { code: string; message: string; fieldErrors?: Record<string, string[]> } };
type AuditRow = {
  actor: string;
  action: string;
  target: string | null;
  detail: { status?: number; code?: string } | null;
};

async function simRequests(request: APIRequestContext): Promise<{ total: number; byOp: Record<string, number> }> {
  const s = (await (await request.get(simControlUrl("stats"))).json()) as {
    requests: number;
    operations: Record<string, { requests: number }>;
  };
  return { total: s.requests, byOp: Object.fromEntries(Object.entries(s.operations).map(([k, v]) => [k, v.requests])) };
}

/** The answer is a refusal with this status and code, naming exactly these fields. */
async function expectRefused(
  res: import("@playwright/test").APIResponse,
  status: number,
  fields: string[],
  code = "invalid_input",
): Promise<ErrorBody> {
  const text = await res.text();
  expect(res.status(), text).toBe(status);
  const body = JSON.parse(text) as ErrorBody;
  expect(body.error.code, text).toBe(code);
  if (fields.length) expect(Object.keys(body.error.fieldErrors ?? {}).sort(), text).toEqual([...fields].sort());
  return body;
}

async function as(
  playwright: { request: { newContext(o: { baseURL?: string }): Promise<APIRequestContext> } },
  baseURL: string | undefined,
  role: DemoRole,
) {
  const ctx = await playwright.request.newContext({ baseURL });
  await signInApi(ctx, role);
  return ctx;
}

async function refusalsSince(ctx: APIRequestContext, actor: string, since: number): Promise<AuditRow[]> {
  const res = await ctx.get(
    `/api/audit?action=request.refused&actor=${encodeURIComponent(actor)}&from=${since}&limit=100`,
  );
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { rows: AuditRow[] }).rows;
}

test("[edges][nul] a NUL in any text input is a 422 naming the field, never a 500, and nothing is sent", async ({
  playwright,
  baseURL,
}) => {
  const broker = await as(playwright, baseURL, "broker");
  const admin = await as(playwright, baseURL, "admin");
  const compliance = await as(playwright, baseURL, "compliance");
  const desk = await subUid(broker, "desk01");
  const desk2 = await subUid(broker, "desk08");
  const before = await simRequests(broker);

  // The withdrawal's reason (was a 500 from the database), and a NUL deep in a field the schema would trim.
  const withdrawal = {
    subUid: desk,
    coin: "USDT",
    dest: "internal_transfer",
    address: desk2,
    amount: "0.01",
    reason: "pay\u0000out",
  };
  await expectRefused(await broker.post("/api/withdrawals", { headers: sameOrigin(baseURL), data: withdrawal }), 422, [
    "reason",
  ]);
  await expectRefused(
    await broker.post("/api/withdrawals", {
      headers: sameOrigin(baseURL),
      data: { ...withdrawal, reason: "payout", chain: " \u0000 " },
    }),
    422,
    ["chain"],
  );
  // A staff name.
  const users = ((await (await admin.get("/api/admin/users")).json()) as { users: { id: string; email: string }[] })
    .users;
  const someone = users.find((u) => u.email.startsWith("compliance@"))!;
  await expectRefused(
    await admin.patch(`/api/admin/users/${someone.id}`, { headers: sameOrigin(baseURL), data: { name: "Eve\u0000" } }),
    422,
    ["name"],
  );
  // Audit and ledger filters, in the query string.
  await expectRefused(await compliance.get("/api/audit?actor=a%00b"), 422, ["actor"]);
  await expectRefused(await compliance.get("/api/audit/export?actor=%00"), 422, ["actor"]);
  await expectRefused(await compliance.get("/api/withdrawals?requestedBy=x%00"), 422, ["requestedBy"]);
  // A proxy route's query, and an export's parameters.
  await expectRefused(await compliance.get(`${proxyPath("fills.list")}?symbol=BTC%00USDT`), 422, ["symbol"]);
  const exp = await compliance.post("/api/exports", {
    headers: sameOrigin(baseURL),
    data: {
      operation: "fills.list",
      params: { symbol: "BTCUSDT\u0000", startTime: String(Date.now() - 86_400_000), endTime: String(Date.now()) },
    },
  });
  await expectRefused(exp, 422, ["params"]);

  expect((await simRequests(broker)).total).toBe(before.total);
  // Still audited as refusals, with the field named.
  const rows = await refusalsSince(compliance, "broker@demo.brokerdesk", Date.now() - 60_000);
  expect(rows.some((r) => r.target === "/api/withdrawals" && r.detail?.status === 422)).toBe(true);
  for (const c of [broker, admin, compliance]) await c.dispose();
});

test('[edges][amount] a 40-digit amount is refused before E2 is asked; " 1", "1\\n" and "1 000" alike', async ({
  playwright,
  baseURL,
}) => {
  const broker = await as(playwright, baseURL, "broker");
  const desk = await subUid(broker, "desk01");
  const desk2 = await subUid(broker, "desk08");
  const before = await simRequests(broker);
  const base = { subUid: desk, coin: "USDT", dest: "internal_transfer", address: desk2, reason: "edge amounts" };
  const big = await expectRefused(
    await broker.post("/api/withdrawals", { headers: sameOrigin(baseURL), data: { ...base, amount: "1".repeat(40) } }),
    422,
    ["amount"],
  );
  expect(big.error.fieldErrors?.amount).toEqual(["amount must have at most 30 digits before the decimal point"]);
  for (const amount of [" 1", "1\n", "1 000"]) {
    const r = await expectRefused(
      await broker.post("/api/withdrawals", { headers: sameOrigin(baseURL), data: { ...base, amount } }),
      422,
      ["amount"],
    );
    expect(r.error.fieldErrors?.amount, JSON.stringify(amount)).toEqual([
      "amount must be a decimal number such as 12.5, without spaces or line breaks",
    ]);
  }
  const after = await simRequests(broker);
  expect(after.byOp["subaccounts.assets"] ?? 0).toBe(before.byOp["subaccounts.assets"] ?? 0);
  expect(after.total).toBe(before.total);
  await broker.dispose();
});

test("[edges][path] a 5,000-character or %00 path segment is a 422 naming the parameter, recorded with the path cut and cleaned (was 503 audit_unavailable)", async ({
  playwright,
  baseURL,
}) => {
  const lead = await as(playwright, baseURL, "lead");
  const admin = await as(playwright, baseURL, "admin");
  const since = Date.now() - 1_000;
  const long = "a".repeat(5_000);
  const confirm = { confirmAmount: "1", confirmAddress: "x" };
  await expectRefused(
    await lead.post(`/api/withdrawals/${long}/approve`, { headers: sameOrigin(baseURL), data: confirm }),
    422,
    ["id"],
  );
  await expectRefused(
    await lead.post("/api/withdrawals/%00/approve", { headers: sameOrigin(baseURL), data: confirm }),
    422,
    ["id"],
  );
  await expectRefused(
    await lead.post(`/api/withdrawals/${long}/reconcile`, { headers: sameOrigin(baseURL), data: {} }),
    422,
    ["id"],
  );
  await expectRefused(await lead.get("/api/sub-accounts/%00"), 422, ["uid"]);
  await expectRefused(await lead.get(`/api/withdrawals/x%0Ay`), 422, ["id"]);
  await expectRefused(
    await admin.patch(`/api/admin/users/${long}`, { headers: sameOrigin(baseURL), data: { name: "x" } }),
    422,
    ["id"],
  );
  // A well-formed id that names nothing is still a 404.
  expect((await lead.get("/api/withdrawals/8c2f7d4e-1b2a-4c3d-9e8f-0a1b2c3d4e5f")).status()).toBe(404);

  const rows = await refusalsSince(lead, "lead@demo.brokerdesk", since);
  const cut = rows.find((r) => r.target?.startsWith(`/api/withdrawals/aaaa`) && r.target.includes("…[cut from"));
  expect(cut, JSON.stringify(rows.map((r) => r.target?.slice(0, 60)))).toBeTruthy();
  expect(cut!.target!.length).toBe(512);
  expect(cut!.detail?.status).toBe(422);
  expect(
    rows.some(
      (r) => r.target?.startsWith("/api/withdrawals/") && r.target.endsWith("/approve") && r.target.length < 40,
    ),
  ).toBe(true);
  for (const r of rows) expect(r.target ?? "").not.toMatch(/[\u0000-\u001f]/);
  await lead.dispose();
  await admin.dispose();
});

test("[edges][platform] values the platform would refuse are refused by the catalog, naming the field; nothing is sent (were 502)", async ({
  playwright,
  baseURL,
}) => {
  const lead = await as(playwright, baseURL, "lead");
  const desk = await subUid(lead, "desk01");
  const existing = (
    (await (await lead.get("/api/sub-accounts")).json()) as { items: { subaccountName: string | null }[] }
  ).items.find((s) => s.subaccountName)!;
  const before = await simRequests(lead);
  const e10 = { symbol: "BTCUSDT", productType: "USDT-FUTURES", marginCoin: "USDT" };

  // Leverage of 40 digits, above the ceiling, above the symbol's bound.
  for (const [body, message] of [
    [{ ...e10, leverage: "9".repeat(40) }, "leverage must be at most 125"],
    [{ ...e10, leverage: "126" }, "leverage must be at most 125"],
    [{ ...e10, symbol: "SOLUSDT", leverage: "51" }, "leverage must be at most 50 for SOLUSDT"],
  ] as const) {
    const r = await expectRefused(
      await lead.post(proxyPath("leverage.set"), { headers: sameOrigin(baseURL), data: body }),
      422,
      ["leverage"],
    );
    expect(r.error.fieldErrors?.leverage).toEqual([message]);
  }
  // Symbols that are not symbols: SQL, and 100,000 characters (in a body; a query that long never reaches the app).
  await expectRefused(
    await lead.post(proxyPath("leverage.set"), {
      headers: sameOrigin(baseURL),
      data: { ...e10, symbol: "BTCUSDT' OR 1=1--", leverage: "10" },
    }),
    422,
    ["symbol"],
  );
  await expectRefused(
    await lead.post(proxyPath("leverage.set"), {
      headers: sameOrigin(baseURL),
      data: { ...e10, symbol: "A".repeat(100_000), leverage: "10" },
    }),
    422,
    ["symbol"],
  );
  await expectRefused(
    await lead.get(`${proxyPath("market.trades")}?symbol=${encodeURIComponent("BTCUSDT' OR 1=1--")}`),
    422,
    ["symbol"],
  );
  await expectRefused(
    await lead.get(
      `${proxyPath("planOrders.history")}?symbol=${"B".repeat(5_000)}&startTime=${Date.now() - 86_400_000}&endTime=${Date.now()}`,
    ),
    422,
    ["symbol"],
  );
  // A parameter given twice: refused on its name, rather than the last one winning.
  const twice = await expectRefused(await lead.get(`${proxyPath("subaccounts.assets")}?subUid=${desk}&subUid=2`), 422, [
    "subUid",
  ]);
  expect(twice.error.fieldErrors?.subUid).toEqual(["subUid is given more than once; send it once"]);
  await expectRefused(await lead.get("/api/withdrawals?state=requested&state=confirmed"), 422, ["state"]);
  // E6 names the platform's rules forbid: not an e-mail address, or taken (names are unique whatever the case).
  await expectRefused(
    await lead.post("/api/sub-accounts", {
      headers: sameOrigin(baseURL),
      data: { subaccountName: 'desk"01 <x>@example.com' },
    }),
    422,
    ["subaccountName"],
  );
  const taken = await expectRefused(
    await lead.post("/api/sub-accounts", {
      headers: sameOrigin(baseURL),
      data: { subaccountName: existing.subaccountName!.toUpperCase() },
    }),
    422,
    ["subaccountName"],
  );
  expect(taken.error.fieldErrors?.subaccountName?.[0]).toMatch(/already exists .*names are unique on the platform/);

  const after = await simRequests(lead);
  expect(after.total, JSON.stringify({ before: before.byOp, after: after.byOp })).toBe(before.total);
  await lead.dispose();
});
