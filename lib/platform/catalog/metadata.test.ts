// The catalog's data against the contract (docs/platform-api.md): ids, codes, methods, paths,
// auth, rate limits, paging and permissions. Everything else (client, proxy, simulator) reads these.
import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import { catalog, isOperationId, operationByPath, OPERATION_IDS, type OperationId } from "@/lib/platform/catalog";
import type { Paging } from "@/lib/platform/define-endpoint";
import { DAY_MS } from "@/lib/platform/schemas";
import { PERMISSIONS, type Permission } from "@/lib/rbac";

type Expected = {
  code: string;
  method: "GET" | "POST";
  path: string;
  auth: "private" | "public";
  brokerOnly: boolean;
  rateLimit: { count: number; scope: "uid" | "ip" };
  permission: Permission;
};

// platform-api.md "Endpoints", "Authentication" (rule 1: E1, E2, E5, E6, E7 are broker main-account only) and "Limits".
const CONTRACT: Record<OperationId, Expected> = {
  "deposits.list": {
    code: "E1",
    method: "GET",
    path: "/api/v2/broker/subaccount-deposit",
    auth: "private",
    brokerOnly: true,
    rateLimit: { count: 10, scope: "uid" },
    permission: "deposits.read",
  },
  "subaccounts.assets": {
    code: "E2",
    method: "GET",
    path: "/api/v2/broker/account/subaccount-spot-assets",
    auth: "private",
    brokerOnly: true,
    rateLimit: { count: 10, scope: "uid" },
    permission: "assets.read",
  },
  "planOrders.history": {
    code: "E3",
    method: "GET",
    path: "/api/v2/spot/trade/history-plan-order",
    auth: "private",
    brokerOnly: false,
    rateLimit: { count: 20, scope: "uid" },
    permission: "planOrders.read",
  },
  "fills.list": {
    code: "E4",
    method: "GET",
    path: "/api/v2/spot/trade/fills",
    auth: "private",
    brokerOnly: false,
    rateLimit: { count: 10, scope: "uid" },
    permission: "fills.read",
  },
  "withdrawals.submit": {
    code: "E5",
    method: "POST",
    path: "/api/v2/broker/account/subaccount-withdrawal",
    auth: "private",
    brokerOnly: true,
    rateLimit: { count: 1, scope: "uid" },
    permission: "withdrawals.approve",
  },
  "subaccounts.create": {
    code: "E6",
    method: "POST",
    path: "/api/v2/broker/account/create-subaccount",
    auth: "private",
    brokerOnly: true,
    rateLimit: { count: 1, scope: "uid" },
    permission: "subaccounts.write",
  },
  "rebates.get": {
    code: "E7",
    method: "GET",
    path: "/api/v2/broker/rebate-info",
    auth: "private",
    brokerOnly: true,
    rateLimit: { count: 20, scope: "uid" },
    permission: "rebates.read",
  },
  "market.trades": {
    code: "E8",
    method: "GET",
    path: "/api/v2/spot/market/fills-history",
    auth: "public",
    brokerOnly: false,
    rateLimit: { count: 10, scope: "ip" },
    permission: "market.read",
  },
  "riskUnits.bind": {
    code: "E9",
    method: "POST",
    path: "/api/v2/spot/ins-loan/bind-uid",
    auth: "private",
    brokerOnly: false,
    rateLimit: { count: 5, scope: "uid" },
    permission: "riskUnits.write",
  },
  "leverage.set": {
    code: "E10",
    method: "POST",
    path: "/api/v2/mix/account/set-leverage",
    auth: "private",
    brokerOnly: false,
    rateLimit: { count: 5, scope: "uid" },
    permission: "leverage.write",
  },
  "oiLimits.list": {
    code: "E11",
    method: "GET",
    path: "/api/v2/mix/market/oi-limit",
    auth: "public",
    brokerOnly: false,
    rateLimit: { count: 10, scope: "ip" },
    permission: "oiLimits.read",
  },
};

const rows = OPERATION_IDS.map((id) => ({ id, expected: CONTRACT[id], op: catalog[id] }));

describe("catalog metadata", () => {
  it("[catalog][ids] holds exactly the 11 operations, in E1..E11 order", () => {
    const e1ToE11 = Array.from({ length: 11 }, (_, i) => `E${i + 1}`);
    // The contract above lists them E1..E11; the catalog has the same, in the same order.
    expect(Object.values(CONTRACT).map((c) => c.code)).toEqual(e1ToE11);
    expect(OPERATION_IDS).toEqual(Object.keys(CONTRACT));
    expect(OPERATION_IDS.map((id) => catalog[id].code)).toEqual(e1ToE11);
  });

  it.each(rows)("[$id][catalog] entry id matches its key", ({ id, op }) => {
    expect(op.id).toBe(id);
    expect(isOperationId(id)).toBe(true);
  });

  it.each(rows)("[$id][catalog] code, method and path are the contract's", ({ op, expected }) => {
    expect({ code: op.code, method: op.method, path: op.path }).toEqual({
      code: expected.code,
      method: expected.method,
      path: expected.path,
    });
  });

  it.each(rows)("[$id][catalog] auth and broker-only flag are the contract's", ({ op, expected }) => {
    expect({ auth: op.auth, brokerOnly: op.brokerOnly }).toEqual({
      auth: expected.auth,
      brokerOnly: expected.brokerOnly,
    });
  });

  it.each(rows)("[$id][catalog] rate limit is the contract's", ({ op, expected }) => {
    expect(op.rateLimit).toEqual(expected.rateLimit);
  });

  it.each(rows)("[$id][catalog] permission is a known one", ({ op, expected }) => {
    expect(PERMISSIONS).toContain(op.permission);
    expect(op.permission).toBe(expected.permission);
  });

  it("[catalog][auth] only E8 and E11 are public", () => {
    expect(OPERATION_IDS.filter((id) => catalog[id].auth === "public")).toEqual(["market.trades", "oiLimits.list"]);
  });

  it("[catalog][paths] every path is unique and lives under /api/v2/", () => {
    const paths = OPERATION_IDS.map((id) => catalog[id].path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const p of paths) expect(p).toMatch(/^\/api\/v2\/[a-z0-9/-]+$/);
  });

  it.each(rows)("[$id][catalog] operationByPath finds it by method and path", ({ id, op }) => {
    expect(operationByPath(op.method, op.path)?.id).toBe(id);
    expect(operationByPath(op.method === "GET" ? "POST" : "GET", op.path)).toBeUndefined();
  });

  it("[catalog][ids] isOperationId refuses unknown and inherited names", () => {
    expect(isOperationId("withdrawals.request")).toBe(false);
    expect(isOperationId("toString")).toBe(false);
  });

  it.each(rows)("[$id][catalog] entry is frozen", ({ op }) => {
    expect(Object.isFrozen(op)).toBe(true);
  });

  it("[riskUnits.bind][catalog] is the only operation with a key rule", () => {
    expect(OPERATION_IDS.filter((id) => "keyRule" in catalog[id] && catalog[id].keyRule)).toEqual(["riskUnits.bind"]);
  });

  it("[rebates.get][catalog] states the 30-day retention", () => {
    expect(catalog["rebates.get"].retentionNote).toMatch(/30 days/);
  });
});

// ---------------------------------------------------------------------------------------------
// Paging

type AnyPaging = Paging<unknown, Record<string, unknown>>;
const pagingOf = (id: OperationId): AnyPaging | null => catalog[id].paging as AnyPaging | null;
const requestOf = (id: OperationId): z.ZodMiniType => catalog[id].request;
const parsed = (id: OperationId, data: unknown): unknown => catalog[id].response.parse(data);

const PAGING: Record<
  OperationId,
  { default: number; max: number; maxSpanMs: number | null; retentionMs: number | null } | null
> = {
  "deposits.list": { default: 20, max: 100, maxSpanMs: 90 * DAY_MS, retentionMs: null },
  "subaccounts.assets": null,
  "planOrders.history": { default: 100, max: 100, maxSpanMs: 90 * DAY_MS, retentionMs: null },
  "fills.list": { default: 100, max: 100, maxSpanMs: 90 * DAY_MS, retentionMs: 90 * DAY_MS },
  "withdrawals.submit": null,
  "subaccounts.create": null,
  "rebates.get": null,
  "market.trades": { default: 500, max: 1000, maxSpanMs: 7 * DAY_MS, retentionMs: 90 * DAY_MS },
  "riskUnits.bind": null,
  "leverage.set": null,
  "oiLimits.list": null,
};

const pagedRows = OPERATION_IDS.flatMap((id) => {
  const expected = PAGING[id];
  return expected ? [{ id, expected }] : [];
});

// A minimal valid request per paged operation, to which limit and times are added.
const BASE_REQUEST: Partial<Record<OperationId, Record<string, string>>> = {
  "deposits.list": { userId: "1234567" },
  "planOrders.history": { symbol: "BTCUSDT" },
  "fills.list": {},
  "market.trades": { symbol: "BTCUSDT" },
};

describe("catalog paging", () => {
  it.each(OPERATION_IDS.map((id) => ({ id })))(
    "[$id][paging] is declared exactly when the operation pages",
    ({ id }) => {
      const paging = pagingOf(id);
      const expected = PAGING[id];
      if (expected === null) {
        expect(paging).toBeNull();
        return;
      }
      expect(paging).not.toBeNull();
      expect(paging?.cursorParam).toBe("idLessThan");
      expect({ ...paging?.limit, maxSpanMs: paging?.maxSpanMs, retentionMs: paging?.retentionMs }).toEqual(expected);
    },
  );

  it.each(pagedRows)("[$id][paging] request accepts limit up to its max and refuses max + 1", ({ id, expected }) => {
    const base = BASE_REQUEST[id] ?? {};
    const times =
      id === "planOrders.history" ? { startTime: String(Date.now() - DAY_MS), endTime: String(Date.now()) } : {};
    expect(requestOf(id).safeParse({ ...base, ...times, limit: String(expected.max) }).success).toBe(true);
    expect(requestOf(id).safeParse({ ...base, ...times, limit: String(expected.default) }).success).toBe(true);
    expect(requestOf(id).safeParse({ ...base, ...times, limit: String(expected.max + 1) }).success).toBe(false);
  });

  it.each(pagedRows)("[$id][paging] request's span bound agrees with maxSpanMs", ({ id, expected }) => {
    const span = expected.maxSpanMs ?? 0;
    // Recent enough that E4's retention rule does not interfere.
    const start = Date.now() - span + 60_000;
    const base = BASE_REQUEST[id] ?? {};
    expect(requestOf(id).safeParse({ ...base, startTime: String(start), endTime: String(start + span) }).success).toBe(
      true,
    );
    expect(
      requestOf(id).safeParse({ ...base, startTime: String(start), endTime: String(start + span + 1) }).success,
    ).toBe(false);
  });

  it("[fills.list][paging] request's retention bound agrees with retentionMs", () => {
    const retention = pagingOf("fills.list")?.retentionMs ?? 0;
    expect(requestOf("fills.list").safeParse({ startTime: String(Date.now() - retention + 60_000) }).success).toBe(
      true,
    );
    expect(requestOf("fills.list").safeParse({ startTime: String(Date.now() - retention - 60_000) }).success).toBe(
      false,
    );
  });
});

describe("catalog next cursor", () => {
  const deposit = (orderId: string) => ({ orderId, coin: "USDT", amount: "1", cTime: "1689833233282" });
  const fill = (tradeId: string) => ({
    symbol: "BTCUSDT",
    orderId: "o1",
    tradeId,
    side: "buy",
    cTime: "1695865232579",
  });
  const trade = (tradeId: string) => ({
    symbol: "BTCUSDT",
    tradeId,
    side: "Buy",
    price: "1",
    size: "1",
    ts: "1622097282536",
  });

  const lastRecord = [
    { id: "deposits.list" as const, make: deposit, key: "orderId" },
    { id: "fills.list" as const, make: fill, key: "tradeId" },
    { id: "market.trades" as const, make: trade, key: "tradeId" },
  ];

  it.each(lastRecord)("[$id][paging] a full page gives the $key of the last (oldest) record", ({ id, make }) => {
    const paging = pagingOf(id);
    const data = parsed(id, [make("30"), make("20"), make("10")]);
    expect(paging?.nextCursor(data, 3)).toBe("10");
  });

  it.each(lastRecord)("[$id][paging] a short page ends the walk", ({ id, make }) => {
    const paging = pagingOf(id);
    expect(paging?.nextCursor(parsed(id, [make("30"), make("20")]), 3)).toBeNull();
    expect(paging?.nextCursor(parsed(id, []), 3)).toBeNull();
  });

  it.each(lastRecord)("[$id][paging] rows and rowId read the $key", ({ id, make }) => {
    const paging = pagingOf(id);
    const data = parsed(id, [make("30"), make("20")]);
    expect(paging?.rows(data).map((r) => paging.rowId(r))).toEqual(["30", "20"]);
  });

  it("[deposits.list][paging] a single-object reply is one row", () => {
    const paging = pagingOf("deposits.list");
    const data = parsed("deposits.list", deposit("7"));
    expect(paging?.rows(data).map((r) => paging.rowId(r))).toEqual(["7"]);
    expect(paging?.nextCursor(data, 1)).toBe("7");
  });

  it.each([
    { id: "deposits.list" as const, row: deposit("1"), time: "1689833233282" },
    { id: "fills.list" as const, row: fill("1"), time: "1695865232579" },
    { id: "market.trades" as const, row: trade("1"), time: "1622097282536" },
  ])("[$id][paging] rowTime is the record's ms time", ({ id, row, time }) => {
    const paging = pagingOf(id);
    const [first] = paging?.rows(parsed(id, [row])) ?? [];
    expect(first && paging?.rowTime(first)).toBe(time);
  });

  describe("[planOrders.history][paging] nextFlag and idLessThan", () => {
    const page = (nextFlag: boolean | string, idLessThan: string) =>
      parsed("planOrders.history", {
        nextFlag,
        idLessThan,
        orderList: [{ orderId: "9", symbol: "TRXUSDT", status: "executed", side: "buy", cTime: "1668134576563" }],
      });
    const paging = pagingOf("planOrders.history");

    it("[planOrders.history][paging] nextFlag true gives the response's idLessThan", () => {
      expect(paging?.nextCursor(page(true, "12345"), 100)).toBe("12345");
      expect(paging?.nextCursor(page("true", "12345"), 100)).toBe("12345");
    });

    it("[planOrders.history][paging] nextFlag false ends the walk even with a full page", () => {
      expect(paging?.nextCursor(page(false, "12345"), 1)).toBeNull();
    });

    it("[planOrders.history][paging] nextFlag true without idLessThan ends the walk", () => {
      expect(paging?.nextCursor(page(true, ""), 100)).toBeNull();
    });

    it("[planOrders.history][paging] rows are the orderList", () => {
      const data = page(false, "1");
      expect(paging?.rows(data).map((r) => paging.rowId(r))).toEqual(["9"]);
      expect(paging?.rowTime(paging.rows(data)[0] ?? {})).toBe("1668134576563");
    });
  });
});
