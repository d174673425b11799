// Over 60 s (about 100 s on the loaded 2-core machine, docs/testing.md): some 1,700 generated invalid requests
// (25 routes, 30 each, and the catalog's fields), each answer checked and the simulator's count read after it. The
// api worker runs it beside a ui worker; the requests are what is tested, so none can go.
import { type APIRequestContext, type PlaywrightWorkerArgs } from "@playwright/test";
import { proxyPath } from "./support/envelope";
import { expect, test } from "./support/test";
import fc from "fast-check";
import { catalog, type OperationId } from "../lib/platform/catalog";
import { OI_PRODUCT_TYPES, PRODUCT_TYPES, WITHDRAWAL_COINS } from "../lib/platform/schemas";
import {
  MISSING,
  badLimit,
  badTimestamp,
  blankOrMissing,
  bodyField,
  bodyLevel,
  bodyWholeField,
  longText,
  notAString,
  notNumeric,
  notOneOf,
  queryField,
  queryWhole,
  type BadCase,
} from "./support/bad-input";
import { sameOrigin, signInApi, simControlUrl, type DemoRole } from "./support/staff";
import { TRAVEL_RULE, SELF_HOSTED } from "./support/travel-rule";
import { FIXTURE_HOLDER } from "../lib/ivms101-fixtures";

// Generated invalid requests against every proxy route and every Brokerdesk mutation route. Each
// must be refused with a 4xx (422 naming the bad field when one field is at fault), never a 5xx, and the
// platform (the embedded simulator) must not have been called. Fixed seed: a failure prints its
// counterexample and replays with the same seed.
const SEED = 7_007;
const RUNS = 30;
const DAY = 86_400_000;
const NOW = Date.now();

// ---------------------------------------------------------------------------------------------
// Sessions (one per role for the whole file: signing in again and again would meet the throttle)

type World = {
  ctx: Record<"lead" | "admin" | "compliance", APIRequestContext>;
  baseURL: string;
  desk: string;
  desk2: string;
  riskUnit: string;
  withdrawalId: string;
  userId: string;
};
let world: World | undefined;

async function setUp(playwright: PlaywrightWorkerArgs["playwright"], baseURL: string): Promise<World> {
  if (world) return world;
  const ctx = {} as Record<DemoRole, APIRequestContext>;
  for (const role of ["lead", "admin", "broker", "compliance"] as const) {
    ctx[role] = await playwright.request.newContext({ baseURL });
    await signInApi(ctx[role], role);
  }
  const subs = (await (await ctx.lead.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null; status: string }[];
  };
  const uidOf = (prefix: string) => subs.items.find((s) => s.subaccountName?.startsWith(prefix))?.subUid;
  const desk = uidOf("desk01@")!;
  const desk2 = uidOf("desk08@")!;
  const riskUnit = uidOf("riskunit01@")!;
  expect([desk, desk2, riskUnit].every(Boolean), JSON.stringify(subs.items.slice(0, 3))).toBe(true);
  // A real pending withdrawal (requested by the broker), so approve/reject cases hit one a lead could approve.
  const w = await ctx.broker.post("/api/withdrawals", {
    headers: sameOrigin(baseURL),
    data: {
      subUid: desk,
      coin: "USDT",
      dest: "internal_transfer",
      address: desk2,
      amount: "0.01",
      reason: "bad-input suite fixture",
    },
  });
  expect(w.status(), await w.text()).toBe(200);
  const withdrawalId = ((await w.json()) as { id: string }).id;
  const users = (await (await ctx.admin.get("/api/admin/users")).json()) as
    { users?: { id: string; email: string }[] } | { id: string; email: string }[];
  const list = Array.isArray(users) ? users : (users.users ?? []);
  const userId = list.find((u) => u.email.startsWith("compliance@"))!.id;
  await ctx.broker.dispose();
  world = {
    ctx: { lead: ctx.lead, admin: ctx.admin, compliance: ctx.compliance },
    baseURL,
    desk,
    desk2,
    riskUnit,
    withdrawalId,
    userId,
  };
  return world;
}

test.afterAll(async () => {
  if (!world) return;
  await world.ctx.lead.dispose();
  await world.ctx.admin.dispose();
  await world.ctx.compliance.dispose();
  world = undefined;
});

// ---------------------------------------------------------------------------------------------
// The check every case goes through

type Route = {
  method: "GET" | "POST" | "PATCH" | "PUT";
  path: (w: World) => string;
  role: "lead" | "admin" | "compliance";
  /**
   * What the route could change, read before its cases and after them (Brokerdesk's own records, which the
   * simulator's count does not see): it must read the same.
   */
  state?: (w: World) => Promise<string>;
  /** Refused by design whatever the input (E5 through the proxy: two-person rule). */
  alwaysForbidden?: boolean;
  cases: (w: World) => fc.Arbitrary<BadCase>;
};

async function simRequests(ctx: APIRequestContext): Promise<{ total: number; byOp: Record<string, number> }> {
  const s = (await (await ctx.get(simControlUrl("stats"))).json()) as {
    requests: number;
    operations: Record<string, { requests: number }>;
  };
  return { total: s.requests, byOp: Object.fromEntries(Object.entries(s.operations).map(([k, v]) => [k, v.requests])) };
}

type Counts = Awaited<ReturnType<typeof simRequests>>;

/** Sends one case; `before` is the simulator's count before it (the previous case's after), returns the count after. */
async function sendCase(w: World, route: Route, c: BadCase, before: Counts): Promise<Counts> {
  const ctx = w.ctx[route.role];
  const url = route.path(w) + (c.query ? `?${c.query}` : "");
  const headers: Record<string, string> = { ...(route.method === "GET" ? {} : sameOrigin(w.baseURL)), ...c.headers };
  if (c.contentType === null) delete headers["Content-Type"];
  else if (c.contentType !== undefined) headers["Content-Type"] = c.contentType;
  const res = await ctx.fetch(url, { method: route.method, headers, data: c.body, timeout: 15_000, maxRedirects: 0 });
  const text = await res.text();
  const status = res.status();
  const after = await simRequests(ctx);
  const called = Object.entries(after.byOp)
    .filter(([op, n]) => n !== (before.byOp[op] ?? 0))
    .map(([op]) => op);
  const label = `${route.method} ${url} [${c.why}] → ${status} ${text.slice(0, 300)}`;

  expect(status, `never a 5xx: ${label}`).toBeLessThan(500);
  expect(status, `a refusal: ${label}`).toBeGreaterThanOrEqual(400);
  expect(after.total - before.total, `no platform call (called: ${called.join(", ") || "none"}): ${label}`).toBe(0);
  let body: { error?: { code?: string; fieldErrors?: Record<string, string[]> } } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new Error(`the refusal is not JSON: ${label}`);
  }
  const fieldErrors = body.error?.fieldErrors ?? {};
  if (route.alwaysForbidden) {
    expect(status, label).toBe(403);
    return after;
  }
  switch (c.expect) {
    case "field":
      expect(status, label).toBe(422);
      expect(body.error?.code, label).toBe("invalid_input");
      expect(Object.keys(fieldErrors), `the field errors name ${c.field}: ${label}`).toEqual([c.field]);
      expect(
        fieldErrors[c.field!]!.every((m) => typeof m === "string" && m.length > 0),
        label,
      ).toBe(true);
      break;
    case "body":
      // A body that is not a JSON object: 422 with the form-level key "_" (400 or 415 would do as well).
      expect([400, 415, 422], label).toContain(status);
      if (status === 422) expect(Object.keys(fieldErrors), label).toEqual(["_"]);
      break;
    case "content-type":
      // The mutation guard refuses anything but application/json (403 csrf); 415 would do as well.
      expect([403, 415], label).toContain(status);
      if (status === 403) expect(body.error?.code, label).toBe("csrf");
      break;
    case "forbidden":
      expect(status, label).toBe(403);
      break;
  }
  return after;
}

function propertyTest(name: string, route: Route): void {
  test(name, async ({ playwright, baseURL }) => {
    test.setTimeout(120_000);
    const w = await setUp(playwright, baseURL!);
    const before = await route.state?.(w);
    let counts = await simRequests(w.ctx[route.role]);
    await fc.assert(
      fc.asyncProperty(route.cases(w), async (c) => {
        counts = await sendCase(w, route, c, counts);
      }),
      // No shrinking: each step is an HTTP round trip (and a bug may be behind a 1-per-second rate limit);
      // the first counterexample is reported as generated, with the seed to replay it.
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    if (route.state) expect(await route.state(w), "nothing changed").toBe(before);
  });
}

// ---------------------------------------------------------------------------------------------
// Valid pieces the cases are built around

const ts = (ms: number) => String(Math.floor(ms));
/** A valid window of at most `maxSpan`, ending within the last `maxAgo` (so inside any retention). */
const window = (maxSpan: number, maxAgo = 30 * DAY) =>
  fc.tuple(fc.integer({ min: 0, max: maxAgo }), fc.integer({ min: 0, max: maxSpan })).map(([ago, span]) => ({
    startTime: ts(NOW - ago - span),
    endTime: ts(NOW - ago),
  }));
/** A window that is too long (span above `maxSpan`) or inverted (end before start). */
const overLong = (maxSpan: number) =>
  fc.integer({ min: maxSpan + 1, max: 3 * maxSpan }).map((span) => ({ startTime: ts(NOW - span), endTime: ts(NOW) }));
const inverted = fc
  .integer({ min: 1, max: 10 * DAY })
  .map((d) => ({ startTime: ts(NOW - DAY), endTime: ts(NOW - DAY - d) }));
const validLimit = (max: number) => fc.option(fc.integer({ min: 1, max }).map(String), { nil: undefined });
const symbol = fc.constantFrom("BTCUSDT", "ETHUSDT", "SOLUSDT");
const compact = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, string>;
/** E3, E4 and E8's valid query: a symbol, a window of at most `maxSpan` and maybe a limit up to `maxLimit`. */
const symbolQuery = (maxSpan: number, maxLimit: number) =>
  fc
    .tuple(symbol, window(maxSpan), validLimit(maxLimit))
    .map(([s, win, limit]) => compact({ symbol: s, ...win, limit }));
/** These times with a symbol: a whole query for a cross-field case of E3, E4 or E8. */
const withSymbol = (times: fc.Arbitrary<Record<string, string>>) =>
  fc.tuple(symbol, times).map(([s, t]) => ({ symbol: s, ...t }));
/** A paged read's window and limit refused one field at a time: bad times (or, with `missing`, none) and a limit outside 1..`maxLimit`. */
const timesAndLimitCases = (
  base: fc.Arbitrary<Record<string, string>>,
  maxLimit: number,
  opts: { missing?: boolean } = {},
) => {
  const badTime = opts.missing ? fc.oneof(badTimestamp, fc.constant(MISSING)) : badTimestamp;
  return [
    queryField(base, "startTime", badTime, "bad startTime"),
    queryField(base, "endTime", badTime, "bad endTime"),
    queryField(base, "limit", badLimit(maxLimit), "limit out of range"),
  ];
};

// ---------------------------------------------------------------------------------------------
// Proxy routes: E1–E11

const routes: [string, Route][] = [];
const add = (name: string, route: Route) => routes.push([name, route]);

add("[bad-input][deposits.list] E1 GET", {
  method: "GET",
  path: () => proxyPath("deposits.list"),
  role: "lead",
  cases: (w) => {
    const base = fc
      .tuple(window(90 * DAY), validLimit(100))
      .map(([win, limit]) => compact({ userId: w.desk, ...win, limit }));
    return fc.oneof(
      queryField(base, "userId", blankOrMissing, "neither userId nor orderId"),
      queryField(base, "userId", notNumeric, "userId is not a UID"),
      ...timesAndLimitCases(base, 100),
      queryWhole(
        overLong(90 * DAY).map((win) => ({ userId: w.desk, ...win })),
        "endTime",
        "span over three months",
      ),
      queryWhole(
        inverted.map((win) => ({ userId: w.desk, ...win })),
        "endTime",
        "inverted window",
      ),
    );
  },
});

add("[bad-input][subaccounts.assets] E2 GET", {
  method: "GET",
  path: () => proxyPath("subaccounts.assets"),
  role: "lead",
  cases: (w) => {
    const base = fc.record({ subUid: fc.constant(w.desk), assetType: fc.constantFrom("hold_only", "all") });
    return fc.oneof(
      queryField(base, "subUid", blankOrMissing, "subUid missing"),
      queryField(base, "subUid", notNumeric, "subUid is not a UID"),
      queryField(base, "assetType", notOneOf(["hold_only", "all"]), "bad assetType"),
    );
  },
});

add("[bad-input][planOrders.history] E3 GET", {
  method: "GET",
  path: () => proxyPath("planOrders.history"),
  role: "lead",
  cases: () => {
    const base = symbolQuery(90 * DAY, 100);
    return fc.oneof(
      queryField(base, "symbol", blankOrMissing, "symbol missing"),
      ...timesAndLimitCases(base, 100, { missing: true }),
      queryWhole(withSymbol(overLong(90 * DAY)), "endTime", "span over 90 days"),
      queryWhole(withSymbol(inverted), "endTime", "inverted window"),
      queryWhole(
        symbol.map((s) => ({ symbol: s, startTime: ts(NOW - DAY), endTime: ts(NOW - DAY) })),
        "endTime",
        "empty window",
      ),
    );
  },
});

add("[bad-input][fills.list] E4 GET", {
  method: "GET",
  path: () => proxyPath("fills.list"),
  role: "lead",
  cases: () => {
    const base = symbolQuery(30 * DAY, 100);
    return fc.oneof(
      ...timesAndLimitCases(base, 100),
      queryWhole(
        withSymbol(fc.integer({ min: 91, max: 400 }).map((d) => ({ startTime: ts(NOW - d * DAY) }))),
        "startTime",
        "older than the 90-day retention",
      ),
      queryWhole(withSymbol(inverted), "endTime", "inverted window"),
    );
  },
});

add("[bad-input][withdrawals.submit] E5 POST (two-person rule: never sent from the proxy)", {
  method: "POST",
  path: () => proxyPath("withdrawals.submit"),
  role: "lead",
  alwaysForbidden: true,
  cases: (w) => {
    const base = fc.record({
      subUid: fc.constant(w.desk),
      coin: fc.constant("USDT"),
      dest: fc.constant("internal_transfer"),
      address: fc.constant(w.desk2),
      amount: fc.constant("1"),
    });
    return fc.oneof(
      base.map((b) => ({
        why: "even a valid body",
        expect: "forbidden" as const,
        field: null,
        body: JSON.stringify(b),
      })),
      bodyField(base, "amount", fc.constantFrom("-1", "0", "abc", "1e9"), "bad amount"),
      bodyField(base, "coin", notOneOf(WITHDRAWAL_COINS), "bad coin"),
      bodyLevel(base),
    );
  },
});

const e6Cases = (): fc.Arbitrary<BadCase> => {
  const base = fc
    .record({
      subaccountName: fc.integer({ min: 1, max: 1e9 }).map((n) => `bd-bad-${n}@example.com`),
      label: fc.option(longText(0, 19), { nil: undefined }),
    })
    .map((o) => compact(o));
  return fc.oneof(
    bodyField(base, "subaccountName", fc.oneof(blankOrMissing, notAString), "subaccountName missing or not text"),
    bodyField(
      base,
      "subaccountName",
      fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s.trim())),
      "not an e-mail",
    ),
    bodyField(
      base,
      "subaccountName",
      longText(250, 4000).map((s) => `${s}@example.com`),
      "over-long e-mail",
    ),
    bodyField(base, "label", fc.oneof(longText(20, 2000), notAString), "label too long or not text"),
    bodyLevel(base),
  );
};

add("[bad-input][subaccounts.create] E6 POST", {
  method: "POST",
  path: () => proxyPath("subaccounts.create"),
  role: "lead",
  cases: e6Cases,
});

add("[bad-input][rebates.get] E7 GET", {
  method: "GET",
  path: () => proxyPath("rebates.get"),
  role: "lead",
  cases: (w) =>
    fc.oneof(
      queryField(fc.constant({ uid: w.desk }), "uid", blankOrMissing, "uid missing"),
      queryField(fc.constant({ uid: w.desk }), "uid", notNumeric, "uid is not a UID"),
    ),
});

add("[bad-input][market.trades] E8 GET", {
  method: "GET",
  path: () => proxyPath("market.trades"),
  role: "lead",
  cases: () => {
    const base = symbolQuery(7 * DAY, 1000);
    return fc.oneof(
      queryField(base, "symbol", blankOrMissing, "symbol missing"),
      ...timesAndLimitCases(base, 1000),
      queryWhole(withSymbol(overLong(7 * DAY)), "endTime", "span over 7 days"),
      queryWhole(withSymbol(inverted), "endTime", "inverted window"),
    );
  },
});

const e9Cases = (w: World, opts: { keyHeader: boolean }): fc.Arbitrary<BadCase> => {
  const base = fc.record({
    riskUnitId: fc.constant(w.riskUnit),
    uid: fc.constant(w.desk2),
    operate: fc.constantFrom("bind", "unbind"),
  });
  const cases = [
    bodyField(base, "uid", fc.oneof(blankOrMissing, notNumeric, notAString), "uid missing or not a UID"),
    bodyField(base, "operate", fc.oneof(notOneOf(["bind", "unbind"]), notAString, fc.constant(MISSING)), "bad operate"),
    bodyField(
      base,
      "riskUnitId",
      fc.oneof(fc.constant(MISSING), fc.constant("")),
      "riskUnitId missing with the main key",
    ),
    bodyField(base, "riskUnitId", fc.oneof(notNumeric, notAString), "riskUnitId is not a UID"),
    base.map((b) => ({
      why: "uid equals riskUnitId",
      expect: "field" as const,
      field: "uid",
      body: JSON.stringify({ ...b, uid: b.riskUnitId }),
    })),
    bodyLevel(base),
  ];
  if (opts.keyHeader) {
    cases.push(
      fc.tuple(base, fc.constantFrom("nope", "riskunit-x", "../main", "main2", "")).map(([b, key]) => ({
        why: `unknown platform key ${JSON.stringify(key)}`,
        expect: "field" as const,
        field: "key",
        body: JSON.stringify(b),
        headers: { "x-platform-key": key },
      })),
    );
  }
  return fc.oneof(...cases);
};

add("[bad-input][riskUnits.bind] E9 POST", {
  method: "POST",
  path: () => proxyPath("riskUnits.bind"),
  role: "lead",
  cases: (w) => e9Cases(w, { keyHeader: true }),
});

add("[bad-input][leveragePlans.create] POST /api/leverage/plans", {
  method: "POST",
  path: () => "/api/leverage/plans",
  role: "lead",
  state: async (w) => (await w.ctx.lead.get("/api/leverage/plans")).text(),
  cases: () => {
    const base = fc.record({
      productType: fc.constant("USDT-FUTURES"),
      source: fc.constant("list"),
      uids: fc.constant("1"),
      symbol: fc.constant("BTCUSDT"),
      leverage: fc.integer({ min: 1, max: 20 }).map(String),
      reason: fc.constant("bad-input"),
    });
    return fc.oneof(
      bodyField(base, "productType", fc.oneof(notOneOf(PRODUCT_TYPES), notAString), "bad productType"),
      bodyField(base, "source", fc.oneof(notOneOf(["filter", "csv", "list"]), notAString), "bad source"),
      bodyField(base, "leverage", fc.constantFrom("0", "-5", "1.5", "abc", "10x", "1000"), "bad leverage"),
      bodyField(base, "uids", fc.constantFrom("", "abc", "1,x2", " , "), "bad uids"),
      bodyField(base, "reason", fc.oneof(blankOrMissing, notAString), "reason missing"),
      bodyLevel(base),
    );
  },
});

add("[bad-input][leverage.set] E10 POST", {
  method: "POST",
  path: () => proxyPath("leverage.set"),
  role: "lead",
  cases: () => {
    const base = fc.record({
      symbol: fc.constant("BTCUSDT"),
      productType: fc.constant("USDT-FUTURES"),
      marginCoin: fc.constant("USDT"),
      leverage: fc.integer({ min: 1, max: 20 }).map(String),
    });
    return fc.oneof(
      bodyField(base, "symbol", fc.oneof(blankOrMissing, notAString), "symbol missing or not text"),
      bodyField(
        base,
        "productType",
        fc.oneof(notOneOf(PRODUCT_TYPES), notAString, fc.constant(MISSING)),
        "bad productType",
      ),
      bodyField(
        base,
        "marginCoin",
        fc.oneof(blankOrMissing, notAString, fc.constantFrom("usdt", "Usdt", "US DT", "USDT!", "ÜSDT")),
        "bad marginCoin",
      ),
      bodyField(
        base,
        "leverage",
        fc.oneof(blankOrMissing, notAString, fc.constantFrom("0", "-5", "1.5", "abc", "10x", "1e2", "０1", " 10 5")),
        "bad leverage",
      ),
      bodyField(base, "holdSide", fc.oneof(notOneOf(["long", "short"]), notAString), "bad holdSide"),
      bodyLevel(base),
    );
  },
});

add("[bad-input][oiLimits.list] E11 GET", {
  method: "GET",
  path: () => proxyPath("oiLimits.list"),
  role: "lead",
  cases: () => {
    const base = fc.record({ productType: fc.constantFrom(...OI_PRODUCT_TYPES, "usdt-futures") });
    return fc.oneof(
      queryField(base, "productType", blankOrMissing, "productType missing"),
      queryField(base, "productType", notOneOf(OI_PRODUCT_TYPES, { caseInsensitive: true }), "bad productType"),
    );
  },
});

// ---------------------------------------------------------------------------------------------
// Brokerdesk's own routes

add("[bad-input][subaccounts.create] POST /api/sub-accounts", {
  method: "POST",
  path: () => "/api/sub-accounts",
  role: "lead",
  cases: e6Cases,
});

add("[bad-input][subaccounts.add] POST /api/sub-accounts/add", {
  method: "POST",
  path: () => "/api/sub-accounts/add",
  role: "lead",
  cases: (w) => {
    const base = fc.record({ subUid: fc.constant(w.desk2), label: fc.constant("desk") });
    return fc.oneof(
      bodyField(
        base,
        "subUid",
        fc.oneof(blankOrMissing, notNumeric, notAString, fc.stringMatching(/^[1-9]\d{32,40}$/)),
        "subUid missing or not a UID",
      ),
      bodyField(
        base,
        "label",
        fc.oneof(longText(20, 2000), fc.integer(), fc.boolean(), fc.array(fc.string())),
        "label too long or not text",
      ),
      bodyLevel(base),
    );
  },
});

/** A real address on each coin's default chain, so only the field under test is wrong. */
const VALID_ADDRESS: Record<string, string> = {
  USDT: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
  BTC: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
  ETH: "0x32Be343B94f860124dC4fEe278FDCBD38C102D88",
  XRP: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
  TON: "EQAABw4VHCMqMTg_Rk1UW2JpcHd-hYyTmqGor7a9xMvS2adL",
};

add("[bad-input][withdrawals.request] POST /api/withdrawals", {
  method: "POST",
  path: () => "/api/withdrawals",
  role: "lead",
  cases: (w) => {
    const onChain = fc
      .record({
        subUid: fc.constant(w.desk),
        coin: fc.constantFrom("USDT", "BTC", "ETH"),
        dest: fc.constant("on_chain"),
        amount: fc.constantFrom("1", "0.5", "12.34567891"),
        reason: fc.constant("bad-input suite"),
      })
      .map((b) => ({ ...b, address: VALID_ADDRESS[b.coin], travelRule: TRAVEL_RULE }));
    const internal = onChain.map((b) => ({ ...b, dest: "internal_transfer", address: w.desk2 }));
    const base = fc.oneof(onChain, internal);
    const badAmount = fc.oneof(
      blankOrMissing,
      notAString,
      fc.constantFrom(
        "0",
        "0.0",
        "-1",
        "1e3",
        "1,5",
        ".5",
        "5.",
        "abc",
        "Infinity",
        "NaN",
        "0x10",
        "1.123456789",
        "01",
        "1 000",
        "+1",
        "１",
      ),
      fc.tuple(fc.nat(1e6), fc.stringMatching(/^\d{9,20}$/)).map(([i, d]) => `${i}.${d}`),
    );
    return fc.oneof(
      bodyField(base, "subUid", fc.oneof(blankOrMissing, notNumeric, notAString), "subUid missing or not a UID"),
      bodyField(base, "coin", fc.oneof(notOneOf(WITHDRAWAL_COINS), notAString, fc.constant(MISSING)), "bad coin"),
      bodyField(
        base,
        "dest",
        fc.oneof(notOneOf(["on_chain", "internal_transfer"]), notAString, fc.constant(MISSING)),
        "bad dest",
      ),
      bodyField(base, "amount", badAmount, "bad amount"),
      bodyField(
        base,
        "reason",
        fc.oneof(blankOrMissing, notAString, fc.constantFrom("ab", "  a  "), longText(501, 3000)),
        "bad reason",
      ),
      bodyField(
        onChain,
        "chain",
        fc.oneof(
          fc.constantFrom("TRC 20", "trc20;", "ERC/20", "<b>"),
          longText(33, 500),
          fc.integer(),
          fc.array(fc.string()),
        ),
        "bad chain",
      ),
      bodyField(
        onChain,
        "address",
        fc.oneof(blankOrMissing, notAString, fc.constantFrom("T Xyz", "abc\tdef"), longText(129, 3000)),
        "bad address",
      ),
      bodyField(
        onChain,
        "address",
        fc.constantFrom(
          "abc",
          "TXyzBrokerdeskBadInput0001",
          "0x32Be343B94f860124dC4fEe278FDCBD38C102D8",
          "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdp",
        ),
        "address not valid on its chain",
      ),
      bodyField(onChain, "tag", fc.oneof(longText(65, 500), fc.integer(), fc.boolean()), "bad tag"),
      bodyField(
        internal,
        "address",
        fc.constantFrom("abc", "0x12ab", "12 34", "desk01@brokerdesk-sim.example"),
        "internal transfer to a non-UID",
      ),
      internal.map((b) => ({
        why: "internal transfer to itself",
        expect: "field" as const,
        field: "address",
        body: JSON.stringify({ ...b, address: b.subUid }),
      })),
      bodyWholeField(
        onChain.map((b) => ({ ...b, coin: "XRP", address: VALID_ADDRESS.XRP })),
        "tag",
        "XRP on chain without a destination tag",
      ),
      bodyField(
        onChain.map((b) => ({ ...b, coin: "XRP", address: VALID_ADDRESS.XRP })),
        "tag",
        fc.constantFrom("abc", "4294967296", "-1", "1.5", "99999999999"),
        "bad XRP destination tag",
      ),
      bodyWholeField(
        onChain.map((b) => ({ ...b, coin: "TON", address: VALID_ADDRESS.TON })),
        "tag",
        "TON on chain without a memo",
      ),
      ...travelRuleCases(onChain),
      bodyLevel(base),
    );
  },
});

/** Not an object at all (an object of stray keys is refused on the first field it lacks instead). */
const notAnObject = fc.oneof(
  fc.constant(MISSING),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 6 }),
  fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
);

/** The Travel Rule's refusals, each on its IVMS101 path (the field errors of travelRule name the whole path). */
function travelRuleCases(onChain: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<BadCase>[] {
  const PERSON = "travelRule.beneficiary.beneficiaryPersons.0";
  const VASP = "travelRule.beneficiaryVASP.beneficiaryVASP.legalPerson";
  const rule = (change: (r: typeof TRAVEL_RULE) => void) => {
    const r = structuredClone(TRAVEL_RULE);
    change(r);
    return r as unknown;
  };
  const named = (why: string, field: string, travelRule: unknown) =>
    onChain.map((b) => {
      const { travelRule: _given, ...rest } = b;
      void _given;
      return {
        why,
        expect: "field" as const,
        field,
        body: JSON.stringify(travelRule === MISSING ? rest : { ...rest, travelRule }),
      };
    });
  return [
    named("on chain without the Travel Rule's data", "travelRule", MISSING),
    named(
      "a beneficiary without a family name",
      `${PERSON}.naturalPerson.name.nameIdentifier.0.primaryIdentifier`,
      rule((r) => {
        r.beneficiary.beneficiaryPersons[0]!.naturalPerson!.name.nameIdentifier[0]!.primaryIdentifier = " ";
      }),
    ),
    named(
      "a beneficiary's country that is not a code",
      `${PERSON}.naturalPerson.countryOfResidence`,
      rule((r) => {
        r.beneficiary.beneficiaryPersons[0]!.naturalPerson!.countryOfResidence = "Germany";
      }),
    ),
    named(
      "a VASP's LEI whose check digits are wrong",
      `${VASP}.nationalIdentification.nationalIdentifier`,
      rule((r) => {
        (
          r.beneficiaryVASP!.beneficiaryVASP.legalPerson.nationalIdentification as { nationalIdentifier: string }
        ).nationalIdentifier = "9999000EXAMPLEVASP17";
      }),
    ),
    named(
      "both a VASP and a self-hosted wallet",
      "travelRule.beneficiaryVASP",
      rule((r) => {
        r.selfHostedWallet = SELF_HOSTED.selfHostedWallet;
      }),
    ),
    named("a self-hosted wallet's attestation too short", "travelRule.selfHostedWallet.statement", {
      ...SELF_HOSTED,
      selfHostedWallet: { method: "signed_message", statement: "ok" },
    }),
  ];
}

add("[bad-input][subaccounts.holder] PUT /api/sub-accounts/:uid/holder", {
  method: "PUT",
  path: (w) => `/api/sub-accounts/${w.desk}/holder`,
  role: "lead",
  state: async (w) => (await w.ctx.lead.get(`/api/sub-accounts/${w.desk}/holder`)).text(),
  cases: () => {
    const holder = (change: (h: typeof FIXTURE_HOLDER) => void) => {
      const h = structuredClone(FIXTURE_HOLDER);
      change(h);
      return h as unknown;
    };
    const base = fc.constant({ holder: FIXTURE_HOLDER as unknown });
    return fc.oneof(
      bodyField(base, "holder", notAnObject, "holder missing or not a person"),
      bodyField(
        base,
        "holder",
        fc.constant(holder((h) => (h.naturalPerson!.name.nameIdentifier = []))),
        "a holder without a name",
        { named: "holder.naturalPerson.name.nameIdentifier" },
      ),
      bodyField(
        base,
        "holder",
        fc.constant(
          holder((h) => {
            delete h.naturalPerson!.geographicAddress;
            delete h.naturalPerson!.dateAndPlaceOfBirth;
          }),
        ),
        "a natural person with neither address nor identification nor birth",
        { named: "holder.naturalPerson.geographicAddress" },
      ),
      bodyLevel(base),
    );
  },
});

add("[bad-input][ledger.deposit-originator] PUT /api/ledger/deposits/:orderId/originator", {
  method: "PUT",
  path: () => "/api/ledger/deposits/1/originator",
  role: "compliance",
  cases: () => {
    const base = fc.constant({ originator: { originatorPersons: [FIXTURE_HOLDER] } });
    return fc.oneof(
      bodyField(base, "originator", notAnObject, "originator missing or not an object"),
      bodyField(base, "originator", fc.constant({ originatorPersons: [] }), "an originator without a person", {
        named: "originator.originatorPersons",
      }),
      bodyLevel(base),
    );
  },
});

add("[bad-input][withdrawals.approve] POST /api/withdrawals/:id/approve", {
  method: "POST",
  path: (w) => `/api/withdrawals/${w.withdrawalId}/approve`,
  role: "lead",
  cases: (w) => {
    const base = fc.constant({ confirmAmount: "0.01", confirmAddress: w.desk2 });
    return fc.oneof(
      bodyField(
        base,
        "confirmAmount",
        fc.oneof(fc.constant(MISSING), fc.constant(""), notAString),
        "confirmAmount missing or not text",
      ),
      bodyField(
        base,
        "confirmAddress",
        fc.oneof(fc.constant(MISSING), fc.constant(""), notAString),
        "confirmAddress missing or not text",
      ),
      bodyLevel(base),
    );
  },
});

add("[bad-input][withdrawals.reject] POST /api/withdrawals/:id/reject", {
  method: "POST",
  path: (w) => `/api/withdrawals/${w.withdrawalId}/reject`,
  role: "lead",
  cases: () => {
    const base = fc.constant({ reason: "not today" });
    return fc.oneof(
      bodyField(
        base,
        "reason",
        fc.oneof(blankOrMissing, notAString, fc.constantFrom("ab", " x "), longText(501, 5000)),
        "bad reason",
      ),
      bodyLevel(base),
    );
  },
});

add("[bad-input][riskUnits.bind] POST /api/risk-units", {
  method: "POST",
  path: () => "/api/risk-units",
  role: "lead",
  cases: (w) => e9Cases(w, { keyHeader: false }),
});

add("[bad-input][exports] POST /api/exports", {
  method: "POST",
  path: () => "/api/exports",
  role: "lead",
  cases: (w) => {
    const p = fc.oneof(
      window(DAY).map((win) => ({
        operation: "deposits.list",
        params: { userId: w.desk, ...win } as Record<string, string>,
      })),
      window(DAY).map((win) => ({
        operation: "planOrders.history",
        params: { symbol: "BTCUSDT", ...win } as Record<string, string>,
      })),
      window(DAY).map((win) => ({
        operation: "fills.list",
        params: { symbol: "BTCUSDT", ...win } as Record<string, string>,
      })),
      window(60_000).map((win) => ({
        operation: "market.trades",
        params: { symbol: "BTCUSDT", ...win } as Record<string, string>,
      })),
    );
    const withParam = (name: string, value: fc.Arbitrary<string | typeof MISSING>, why: string) =>
      fc.tuple(p, value).map(([b, v]) => {
        const params = { ...b.params };
        if (v === MISSING) delete params[name];
        else params[name] = v;
        return {
          why: `${why}: ${b.operation} ${name}=${v === MISSING ? "(missing)" : JSON.stringify(v)}`,
          expect: "field" as const,
          field: name,
          body: JSON.stringify({ ...b, params }),
        };
      });
    return fc.oneof(
      bodyField(
        p,
        "operation",
        fc.oneof(
          fc.constantFrom("withdrawals.submit", "leverage.set", "oiLimits.list", "deposits", "", "__proto__"),
          notAString,
          fc.constant(MISSING),
        ),
        "bad operation",
      ),
      bodyField(
        p,
        "params",
        fc.oneof(
          fc.constant(MISSING),
          fc.constant(null),
          fc.constant("startTime=1"),
          fc.array(fc.string()),
          fc.integer(),
          fc.constant({ startTime: 1 }),
        ),
        "params not an object of strings",
      ),
      withParam("startTime", fc.oneof(badTimestamp, fc.constant(MISSING)), "bad startTime"),
      withParam("endTime", fc.oneof(badTimestamp, fc.constant(MISSING)), "bad endTime"),
      withParam("limit", fc.integer({ min: 1, max: 100 }).map(String), "limit is the export's to choose"),
      withParam("idLessThan", fc.constantFrom("1", "999"), "idLessThan is the export's to choose"),
      fc.tuple(p, fc.integer({ min: 1, max: 10 * DAY })).map(([b, d]) => ({
        why: `inverted range: ${b.operation}`,
        expect: "field" as const,
        field: "endTime",
        body: JSON.stringify({ ...b, params: { ...b.params, endTime: ts(Number(b.params.startTime) - d) } }),
      })),
      fc.tuple(fc.constantFrom("fills.list", "market.trades"), fc.integer({ min: 91, max: 400 })).map(([op, d]) => ({
        why: `${op} older than its retention`,
        expect: "field" as const,
        field: "startTime",
        body: JSON.stringify({
          operation: op,
          params: { symbol: "BTCUSDT", startTime: ts(NOW - d * DAY), endTime: ts(NOW - (d - 1) * DAY) },
        }),
      })),
      fc.tuple(p, fc.constantFrom("nope", "riskunit", "")).map(([b, key]) => ({
        why: `unknown key ${JSON.stringify(key)}: ${b.operation}`,
        expect: "field" as const,
        field: "key",
        body: JSON.stringify({ ...b, key }),
      })),
      fc.tuple(fc.constantFrom("planOrders.history", "market.trades"), window(DAY)).map(([op, win]) => ({
        why: `${op} without its symbol`,
        expect: "field" as const,
        field: "symbol",
        body: JSON.stringify({ operation: op, params: win }),
      })),
      window(DAY).map((win) => ({
        why: "deposits without userId or orderId",
        expect: "field" as const,
        field: "userId",
        body: JSON.stringify({ operation: "deposits.list", params: win }),
      })),
      bodyLevel(p),
    );
  },
});

add("[bad-input][users.create] POST /api/admin/users", {
  method: "POST",
  path: () => "/api/admin/users",
  role: "admin",
  cases: () => {
    const base = fc.record({
      email: fc.integer({ min: 1, max: 1e9 }).map((n) => `bd-bad-${n}@example.com`),
      name: fc.constant("Bad Input"),
      role: fc.constantFrom("compliance", "broker", "lead", "admin"),
      password: fc.constant("a-long-enough-password"),
    });
    return fc.oneof(
      bodyField(
        base,
        "email",
        fc.oneof(
          fc.constant(MISSING),
          fc.constantFrom("", "a", "a@", "@b.c", "a b@c.d", "a@b"),
          notAString,
          longText(250, 2000).map((s) => `${s}@example.com`),
        ),
        "bad email",
      ),
      bodyField(
        base,
        "role",
        fc.oneof(notOneOf(["compliance", "broker", "lead", "admin"]), notAString, fc.constant(MISSING)),
        "bad role",
      ),
      bodyField(
        base,
        "password",
        fc.oneof(fc.constant(MISSING), longText(0, 11), fc.constant("é".repeat(40)), longText(73, 500), notAString),
        "bad password",
      ),
      bodyField(
        base,
        "name",
        fc.oneof(longText(101, 1000), fc.integer(), fc.boolean(), fc.array(fc.string())),
        "bad name",
      ),
      bodyLevel(base),
    );
  },
});

const KEY_BASE = fc.record({
  apiKey: fc.integer({ min: 1, max: 1e9 }).map((n) => `bd_bad_${n}`),
  apiSecret: fc.constant("a-secret-that-never-gets-stored"),
  passphrase: fc.constant("bad-input-pass"),
});
const keyFieldCases = (base: fc.Arbitrary<Record<string, unknown>>) => [
  bodyField(
    base,
    "apiKey",
    fc.oneof(
      blankOrMissing,
      notAString,
      fc.constantFrom("short", "has space in it", "ключ-ключ-ключ"),
      longText(65, 300),
    ),
    "bad API key",
  ),
  bodyField(
    base,
    "apiSecret",
    fc.oneof(fc.constant(MISSING), fc.constantFrom("too-short", "with a space inside it"), longText(129, 500)),
    "bad secret",
  ),
  bodyField(base, "passphrase", fc.oneof(blankOrMissing, notAString, longText(33, 200)), "bad passphrase"),
  bodyLevel(base),
];

add("[bad-input][subaccountKeys.add] POST /api/admin/keys", {
  method: "POST",
  path: () => "/api/admin/keys",
  role: "admin",
  cases: (w) => {
    const base = KEY_BASE.map((k) => ({ uid: w.desk, ...k }));
    return fc.oneof(
      bodyField(base, "uid", fc.oneof(blankOrMissing, notNumeric, notAString), "bad UID"),
      ...keyFieldCases(base),
    );
  },
});

add("[bad-input][subaccountKeys.rotate] POST /api/admin/keys/:uid/rotate", {
  method: "POST",
  path: (w) => `/api/admin/keys/${w.desk}/rotate`,
  role: "admin",
  cases: () => fc.oneof(...keyFieldCases(KEY_BASE)),
});

add("[bad-input][subaccountKeys.approve] POST /api/admin/keys/:uid/approve", {
  method: "POST",
  path: (w) => `/api/admin/keys/${w.desk}/approve`,
  role: "admin",
  cases: () => {
    const base = fc.constant({ version: 1 });
    return fc.oneof(
      bodyField(
        base,
        "version",
        fc.oneof(fc.constant(MISSING), fc.constantFrom(0, -1, 1.5, "1", null, true)),
        "bad version",
      ),
      bodyLevel(base),
    );
  },
});

add("[bad-input][users.update] PATCH /api/admin/users/:id", {
  method: "PATCH",
  path: (w) => `/api/admin/users/${w.userId}`,
  role: "admin",
  cases: () => {
    const base = fc.constant({ name: "Demo Compliance" });
    return fc.oneof(
      bodyField(
        base,
        "role",
        fc.oneof(
          notOneOf(["compliance", "broker", "lead", "admin"]),
          notAString.filter((v) => v !== null),
        ),
        "bad role",
      ),
      bodyField(
        base,
        "disabled",
        fc.oneof(
          fc.constantFrom("true", "false", "yes", "1", ""),
          fc.integer(),
          fc.constant(null),
          fc.array(fc.boolean()),
        ),
        "disabled not a boolean",
      ),
      bodyField(base, "name", fc.oneof(longText(101, 1000), fc.integer(), fc.boolean()), "bad name"),
      bodyLevel(base),
    );
  },
});

add("[bad-input][users.password] POST /api/admin/users/:id/password", {
  method: "POST",
  path: (w) => `/api/admin/users/${w.userId}/password`,
  role: "admin",
  cases: () => {
    const base = fc.constant({ password: "a-long-enough-password" });
    return fc.oneof(
      bodyField(
        base,
        "password",
        fc.oneof(fc.constant(MISSING), longText(0, 11), longText(73, 500), fc.constant("€".repeat(25)), notAString),
        "bad password",
      ),
      bodyLevel(base),
    );
  },
});

add("[bad-input][mfa.verify] POST /api/account/mfa/verify", {
  method: "POST",
  path: () => "/api/account/mfa/verify",
  role: "lead",
  cases: () => {
    const base = fc.constant({ method: "totp", otp: "123456" });
    return fc.oneof(
      bodyField(
        base,
        "method",
        fc.oneof(notOneOf(["totp", "recovery", "passkey"]), notAString, fc.constant(MISSING)),
        "bad method",
      ),
      bodyField(
        base,
        "otp",
        fc.oneof(
          fc.constant(MISSING),
          notAString,
          fc.constantFrom("", "12345", "1234567", "abcdef", "12 34 5", "１２３４５６", "123456\u0000"),
        ),
        "bad otp",
      ),
      bodyLevel(base),
    );
  },
});

add("[bad-input][mfa.totp-confirm] POST /api/account/mfa/totp/confirm", {
  method: "POST",
  path: () => "/api/account/mfa/totp/confirm",
  role: "lead",
  cases: () => {
    const base = fc.uuid().map((factorId) => ({ factorId, otp: "123456" }));
    return fc.oneof(
      bodyField(
        base,
        "factorId",
        fc.oneof(
          fc.constant(MISSING),
          notAString,
          fc.constantFrom("", "1", "not-a-uuid", "00000000-0000-0000-0000-00000000000g"),
        ),
        "bad factorId",
      ),
      bodyField(
        base,
        "otp",
        fc.oneof(fc.constant(MISSING), notAString, fc.constantFrom("", "12345", "abcdef")),
        "bad otp",
      ),
      bodyLevel(base),
    );
  },
});

/** Cursors the ledger never gave out: random bytes, and "<time>|<uuid>" with a time JavaScript reads but the database does not. */
const cursorCases = (base: fc.Arbitrary<Record<string, string>>) => [
  queryField(
    base,
    "cursor",
    fc.string({ minLength: 1, maxLength: 60, unit: "binary" }).map((t) => Buffer.from(t).toString("base64url")),
    "cursor not one the ledger gave out",
  ),
  queryField(
    base,
    "cursor",
    fc
      .tuple(fc.constantFrom("1", "0", "2024", "Jan 1", "12/31", "1 2 3", "2024-02-30T00:00:00.000000Z"), fc.uuid())
      .map(([at, id]) => Buffer.from(`${at}|${id}`).toString("base64url")),
    "cursor with a time the ledger never writes",
  ),
];

/** The ledger's filters; the export takes the same ones but walks every page itself (it reads no cursor). */
const ledgerFilters = (path: string, opts: { cursor: boolean }): Route => ({
  method: "GET",
  path: () => path,
  role: "lead",
  cases: (w) => {
    const base = fc.record({ subUid: fc.constant(w.desk), limit: fc.integer({ min: 1, max: 500 }).map(String) });
    return fc.oneof(
      queryField(
        base,
        "subUid",
        fc.oneof(
          notNumeric.filter((s) => s.trim() !== ""),
          fc.stringMatching(/^[1-9]\d{32,40}$/),
        ),
        "subUid not a UID",
      ),
      queryField(
        base,
        "coin",
        notOneOf(WITHDRAWAL_COINS).filter((s) => s.trim() !== ""),
        "bad coin",
      ),
      queryField(
        base,
        "state",
        notOneOf([
          "requested",
          "approved",
          "submitted",
          "confirmed",
          "failed",
          "unknown",
          "rejected",
          "cancelled",
        ]).filter((s) => s.trim() !== ""),
        "bad state",
      ),
      queryField(base, "from", badTimestamp, "bad from"),
      queryField(base, "to", badTimestamp, "bad to"),
      queryField(base, "limit", badLimit(500), "limit out of range"),
      queryField(base, "requestedBy", longText(255, 1000), "requestedBy too long"),
      queryField(base, "amountMin", fc.constantFrom("abc", "-1", "1e3", "1,5", ".5", "01"), "amountMin not a decimal"),
      queryField(base, "amountMax", fc.constantFrom("abc", "-1", "1e3", "1,5", ".5", "01"), "amountMax not a decimal"),
      queryField(base, "address", longText(129, 1000), "address too long"),
      queryField(base, "cursor", longText(201, 1000), "cursor too long"),
      ...(opts.cursor ? cursorCases(base) : []),
    );
  },
});
add("[bad-input][withdrawals.read] GET /api/withdrawals", ledgerFilters("/api/withdrawals", { cursor: true }));
add(
  "[bad-input][withdrawals.export] GET /api/withdrawals/export",
  ledgerFilters("/api/withdrawals/export", { cursor: false }),
);
add(
  "[bad-input][withdrawals.summary] GET /api/withdrawals/summary",
  ledgerFilters("/api/withdrawals/summary", { cursor: false }),
);

/** The ledger's fills and plan orders of a key: each filter refused on its own field, before anything is read. */
const tradeFilters = (path: string, own: "tradeScope" | "status"): Route => ({
  method: "GET",
  path: () => path,
  role: "lead",
  cases: () => {
    const base = fc.record({ symbol: symbol, limit: fc.integer({ min: 1, max: 500 }).map(String) });
    return fc.oneof(
      queryField(base, "key", fc.constantFrom("MAIN", "main key", "sub-1", "k".repeat(41)), "key not a key's name"),
      queryField(base, "symbol", fc.constantFrom("BTC-USDT", "b", "BTC USDT", "x".repeat(31)), "bad symbol"),
      queryField(
        base,
        "side",
        notOneOf(["buy", "sell"]).filter((s) => s.trim() !== ""),
        "bad side",
      ),
      queryField(
        base,
        "orderId",
        notNumeric.filter((s) => s.trim() !== ""),
        "orderId not digits",
      ),
      queryField(
        base,
        own,
        own === "tradeScope"
          ? notOneOf(["taker", "maker"]).filter((s) => s.trim() !== "")
          : fc.constantFrom("Executed", "not-trigger", "a b", "x".repeat(33)),
        `bad ${own}`,
      ),
      queryField(base, "from", badTimestamp, "bad from"),
      queryField(base, "to", badTimestamp, "bad to"),
      queryField(base, "limit", badLimit(500), "limit out of range"),
      ...cursorCases(base),
    );
  },
});
add("[bad-input][ledger.sync] GET /api/ledger/sync", {
  method: "GET",
  path: () => "/api/ledger/sync",
  role: "lead",
  cases: () =>
    fc.oneof(
      queryField(fc.record({}), "subUid", fc.constantFrom("abc", "12x", "-1", "1".repeat(33)), "subUid not a UID"),
      queryField(fc.record({}), "limit", badLimit(500), "limit out of range"),
    ),
});
add("[bad-input][ledger.fills] GET /api/ledger/fills", tradeFilters("/api/ledger/fills", "tradeScope"));
add("[bad-input][ledger.plan-orders] GET /api/ledger/plan-orders", tradeFilters("/api/ledger/plan-orders", "status"));
add("[bad-input][subaccounts.search] GET /api/sub-accounts/search", {
  method: "GET",
  path: () => "/api/sub-accounts/search",
  role: "lead",
  cases: () => {
    const base = fc.record({ q: fc.constantFrom("desk", "54", "vip") });
    return fc.oneof(
      queryField(base, "q", longText(101, 1000), "q too long"),
      queryField(base, "limit", badLimit(500), "limit out of range"),
      queryField(base, "cursor", fc.constantFrom("abc", "12x", "-1", "1".repeat(33)), "cursor not a UID"),
    );
  },
});
add("[bad-input][subaccounts.names] GET /api/sub-accounts/names", {
  method: "GET",
  path: () => "/api/sub-accounts/names",
  role: "lead",
  cases: () => {
    const base = fc.record({ uids: fc.constantFrom("1", "54,55") });
    const tooMany = Array.from({ length: 201 }, (_, i) => String(i + 1)).join(",");
    return queryField(
      base,
      "uids",
      fc.constantFrom("", "1,", ",1", "abc", "1;2", "1, 2", "1".repeat(33), tooMany),
      "not a list of 1 to 200 UIDs",
    );
  },
});
add("[bad-input][subaccounts.browse] GET /api/sub-accounts/registry", {
  method: "GET",
  path: () => "/api/sub-accounts/registry",
  role: "lead",
  cases: () => {
    const base = fc.record({ q: fc.constantFrom("desk", "54", "vip"), order: fc.constantFrom("name", "uid") });
    return fc.oneof(
      queryField(base, "q", longText(101, 1000), "q too long"),
      queryField(base, "status", fc.constantFrom("gone", "NORMAL", "frozen"), "status not a platform status"),
      queryField(base, "source", fc.constantFrom("seed", "import"), "source unknown"),
      queryField(base, "limit", badLimit(500), "limit out of range"),
    );
  },
});
add("[bad-input][keys.list] GET /api/platform-keys", {
  method: "GET",
  path: () => "/api/platform-keys",
  role: "lead",
  cases: () =>
    queryField(fc.record({}), "for", fc.constantFrom("deposits", "FILLS", "plan_orders", ""), "for not a ledger list"),
});
add("[bad-input][ledger.balance-history] GET /api/ledger/sub-accounts/{subUid}/balances", {
  method: "GET",
  path: (w) => `/api/ledger/sub-accounts/${w.desk}/balances`,
  role: "lead",
  cases: () =>
    queryField(fc.record({}), "days", fc.constantFrom("0", "3661", "-1", "1.5", "abc", "99999"), "days out of range"),
});

const auditFilters = (path: string): Route => ({
  method: "GET",
  path: () => path,
  role: "lead",
  cases: () => {
    const base = fc.record({ limit: fc.integer({ min: 1, max: 500 }).map(String) });
    return fc.oneof(
      queryField(base, "actor", longText(201, 1000), "actor too long"),
      queryField(
        base,
        "action",
        fc.oneof(
          fc.constantFrom("", "withdrawals approve", "drop;table", "a".repeat(65), "ação"),
          fc.string({ maxLength: 10 }).filter((s) => !/^[a-zA-Z.-]{1,64}$/.test(s)),
        ),
        "bad action",
      ),
      queryField(
        base,
        "outcome",
        notOneOf(["intent", "success", "failure", "refused", "info", "interrupted"]),
        "bad outcome",
      ),
      queryField(base, "from", badTimestamp, "bad from"),
      queryField(base, "to", badTimestamp, "bad to"),
      queryField(base, "limit", badLimit(500), "limit out of range"),
      queryField(
        base,
        "cursor",
        fc.oneof(notNumeric, fc.stringMatching(/^[1-9]\d{19,30}$/)),
        "bad cursor (or past any row id)",
      ),
    );
  },
});
add("[bad-input][audit.read] GET /api/audit", auditFilters("/api/audit"));
add("[bad-input][audit.export] GET /api/audit/export", auditFilters("/api/audit/export"));

// ---------------------------------------------------------------------------------------------
// Monitoring (compliance) and the money-out policy (admin): Brokerdesk's own records, so besides the refusal
// each route's state reads the same after its cases (the rule versions and the alerts; the policy's versions).

const monitoringState = async (w: World) =>
  JSON.stringify([
    await (await w.ctx.compliance.get("/api/monitoring/rules")).json(),
    ((await (await w.ctx.compliance.get("/api/monitoring/alerts?limit=1")).json()) as { total: number }).total,
  ]);
const policyState = async (w: World) => JSON.stringify(await (await w.ctx.admin.get("/api/policy")).json());
/** A case or rule ID nothing has: the input is refused before anything is looked up. */
const SOME_ID = "7d3f2c1a-5b6e-4f80-9a1b-2c3d4e5f6a7b";
const notAnId = fc.oneof(
  fc.constant(MISSING),
  notAString,
  fc.constantFrom("", "1", "not-a-uuid", "7d3f2c1a-5b6e-4f80-9a1b-2c3d4e5f6a7", "7D3F2C1A_5B6E_4F80_9A1B_2C3D4E5F6A7B"),
);
const badReason = (max: number) =>
  fc.oneof(blankOrMissing, notAString, fc.constantFrom("ab", "  a  "), longText(max + 1, max + 500));

/** Each kind's valid parameters, and for some of its parameters values its schema refuses (on that parameter). */
const KIND_CASES: { kind: string; params: Record<string, unknown>; bad: Record<string, unknown[]> }[] = [
  {
    kind: "large_deposit",
    params: { unit: "coin", coin: "BTC", minAmount: "10" },
    bad: { unit: ["eur", 1, MISSING], coin: ["b-c", "", 5], minAmount: ["-1", "0", "1e3", " 5", 10, MISSING] },
  },
  { kind: "first_deposit", params: { unit: "usdt", minAmount: "5000" }, bad: { minAmount: ["abc", "0.0", ""] } },
  {
    kind: "structuring",
    params: { coin: "USDT", threshold: "10000", marginPct: 10, minCount: 3, windowHours: 24 },
    bad: {
      coin: [MISSING, ""],
      marginPct: [0, 51, 1.5, "10"],
      minCount: [1, 1_001],
      windowHours: [0, 8_809, -1, MISSING],
    },
  },
  {
    kind: "velocity",
    params: { source: "withdrawals", measure: "count", limit: "5", windowHours: 24 },
    bad: { source: ["trades"], measure: ["avg"], limit: ["x", MISSING], windowHours: [MISSING, 0.5] },
  },
  {
    kind: "pass_through",
    params: { pct: 90, windowHours: 48 },
    bad: { pct: [0, 1_001, "90"], windowHours: [MISSING] },
  },
  {
    kind: "dormant_active",
    params: { dormantDays: 90, unit: "usdt", minAmount: "5" },
    bad: { dormantDays: [0, 3_661, MISSING] },
  },
  {
    kind: "shared_address",
    params: { side: "deposit_source", minSubAccounts: 3, windowHours: 720 },
    bad: { side: ["both", MISSING], minSubAccounts: [1], windowHours: [MISSING] },
  },
  { kind: "new_destination", params: { lookbackDays: 365 }, bad: { lookbackDays: [0, 4_000, MISSING] } },
  {
    kind: "aggregate",
    params: { source: "deposits", measure: "count", op: ">=", threshold: "20", windowHours: 24 },
    bad: {
      // No window: a rule that would scan without bounds.
      windowHours: [MISSING, 0, 8_809, 2.5],
      op: ["<", "=="],
      threshold: ["", "-2"],
      statuses: [[], ["SUCCESS"], "success"],
      subUid: ["12a", 42],
      minAmount: ["0"],
    },
  },
];

add("[bad-input][monitoring.rule-draft] POST /api/monitoring/rules", {
  method: "POST",
  path: () => "/api/monitoring/rules",
  role: "compliance",
  state: monitoringState,
  cases: () => {
    const base = fc.constant({
      name: "bad-input rule",
      kind: "large_deposit",
      severity: "low",
      holds: false,
      params: KIND_CASES[0]!.params,
    });
    const paramCases = KIND_CASES.flatMap(({ kind, params, bad }) =>
      Object.entries(bad).map(([field, values]) =>
        fc.constantFrom(...values).map((v) => {
          const p: Record<string, unknown> = { ...params };
          if (v === MISSING) delete p[field];
          else p[field] = v;
          return {
            why: `${kind} ${field}=${v === MISSING ? "(missing)" : JSON.stringify(v)}`,
            expect: "field" as const,
            field,
            body: JSON.stringify({ name: "bad-input rule", kind, severity: "low", holds: false, params: p }),
          };
        }),
      ),
    );
    return fc.oneof(
      bodyField(base, "name", fc.oneof(blankOrMissing, notAString, longText(101, 500)), "bad name"),
      bodyField(base, "kind", fc.oneof(notOneOf(KIND_CASES.map((k) => k.kind)), fc.constant(MISSING)), "bad kind"),
      bodyField(base, "severity", fc.oneof(notOneOf(["low", "medium", "high"]), fc.constant(MISSING)), "bad severity"),
      bodyField(base, "holds", fc.oneof(fc.constantFrom("true", 1, null), fc.constant(MISSING)), "holds not a boolean"),
      bodyField(
        base,
        "params",
        fc.oneof(fc.constant(MISSING), fc.constantFrom(null, "x", 3, [1])),
        "params not an object",
      ),
      ...paramCases,
      bodyLevel(base),
    );
  },
});

/** A case's route with a JSON body; the case does not exist, so only the input can be refused first. */
const caseRoute = (path: string, base: Record<string, unknown>, fields: [string, fc.Arbitrary<unknown>][]): Route => ({
  method: "POST",
  path: () => `/api/monitoring/cases/${SOME_ID}${path}`,
  role: "compliance",
  state: monitoringState,
  cases: () =>
    fc.oneof(
      ...fields.map(([f, bad]) => bodyField(fc.constant(base), f, bad, `bad ${f}`)),
      bodyLevel(fc.constant(base)),
    ),
});
const outcomes = ["false_positive", "monitored", "reported"];
/** A case's version as its reviewer saw it: required on every decision, a whole number from 0. */
const badVersion = fc.oneof(fc.constant(MISSING), fc.constantFrom(-1, 1.5, "1", null, true));
add(
  "[bad-input][monitoring.case-update] POST /api/monitoring/cases/:id",
  caseRoute("", { assignee: "compliance@demo.brokerdesk", status: "investigating" }, [
    ["assignee", fc.oneof(fc.constantFrom("compliance", "a@", "@b.c", ""), fc.integer())],
    ["status", fc.oneof(notOneOf(["open", "investigating"]), fc.constant("closed"))],
  ]),
);
add(
  "[bad-input][monitoring.case-close] POST /api/monitoring/cases/:id/close",
  caseRoute("/close", { outcome: "monitored", reason: "looked at it", version: 1 }, [
    ["outcome", fc.oneof(notOneOf(outcomes), fc.constant(MISSING))],
    ["reason", badReason(2000)],
    ["version", badVersion],
  ]),
);
add(
  "[bad-input][monitoring.case-note] POST /api/monitoring/cases/:id/notes",
  caseRoute("/notes", { body: "a note" }, [["body", fc.oneof(blankOrMissing, notAString, longText(5001, 6000))]]),
);
add(
  "[bad-input][monitoring.case-attach] POST /api/monitoring/cases/:id/records",
  caseRoute("/records", { recordKind: "deposit", recordId: "123" }, [
    ["recordKind", fc.oneof(notOneOf(["deposit", "withdrawal"]), fc.constant(MISSING))],
    ["recordId", fc.oneof(blankOrMissing, notAString, longText(101, 500))],
  ]),
);
add(
  "[bad-input][monitoring.clear-hold] POST /api/monitoring/cases/:id/clear-hold",
  caseRoute("/clear-hold", { reason: "documented", version: 1 }, [
    ["reason", badReason(500)],
    ["version", badVersion],
  ]),
);
add(
  "[bad-input][monitoring.reject-held] POST /api/monitoring/cases/:id/reject-withdrawal",
  caseRoute("/reject-withdrawal", { withdrawalId: SOME_ID, reason: "not allowed", version: 1 }, [
    ["withdrawalId", notAnId],
    ["reason", badReason(500)],
    ["version", badVersion],
  ]),
);
// A sanctions match's release: proposed with a reason (1..500), confirmed naming whose proposal was read.
add(
  "[bad-input][monitoring.release-propose] POST /api/monitoring/cases/:id/sanctions/:alertId/propose-release",
  caseRoute("/sanctions/1/propose-release", { reason: "listed in error" }, [
    ["reason", fc.oneof(blankOrMissing, notAString, longText(501, 1000))],
  ]),
);
add(
  "[bad-input][monitoring.release-confirm] POST /api/monitoring/cases/:id/sanctions/:alertId/confirm-release",
  caseRoute("/sanctions/1/confirm-release", { proposedBy: "compliance@demo.brokerdesk" }, [
    ["proposedBy", fc.oneof(blankOrMissing, notAString, fc.constantFrom("compliance", "a@", "@b.c"))],
  ]),
);
add("[bad-input][monitoring.snooze] POST /api/monitoring/snoozes", {
  method: "POST",
  path: () => "/api/monitoring/snoozes",
  role: "compliance",
  state: monitoringState,
  cases: (w) => {
    const base = fc.constant({ ruleId: SOME_ID, subUid: w.desk, until: "2099-01-01T00:00:00Z", reason: "known desk" });
    return fc.oneof(
      bodyField(base, "ruleId", notAnId, "bad ruleId"),
      bodyField(base, "subUid", fc.oneof(blankOrMissing, notNumeric, notAString), "bad subUid"),
      bodyField(
        base,
        "until",
        fc.oneof(fc.constant(MISSING), notAString, fc.constantFrom("tomorrow", "2099-13-01T00:00:00Z", "2099-01-01")),
        "bad until",
      ),
      bodyField(base, "reason", badReason(500), "bad reason"),
      bodyLevel(base),
    );
  },
});
const caseIdsBad = fc.oneof(
  fc.constant(MISSING),
  fc.constantFrom([], "x", [1], ["nope"], [SOME_ID, SOME_ID]),
  fc.constant(Array.from({ length: 201 }, (_, i) => `${SOME_ID.slice(0, 24)}${String(i).padStart(12, "0")}`)),
);
add("[bad-input][monitoring.cases-assign] POST /api/monitoring/cases/assign", {
  method: "POST",
  path: () => "/api/monitoring/cases/assign",
  role: "compliance",
  state: monitoringState,
  cases: () => {
    const base = fc.constant({ caseIds: [SOME_ID], assignee: "compliance@demo.brokerdesk" });
    return fc.oneof(
      bodyField(base, "caseIds", caseIdsBad, "bad caseIds"),
      bodyField(base, "assignee", fc.oneof(fc.constant(MISSING), fc.constantFrom("x", "", 3)), "bad assignee"),
      bodyLevel(base),
    );
  },
});
add("[bad-input][monitoring.cases-close] POST /api/monitoring/cases/close", {
  method: "POST",
  path: () => "/api/monitoring/cases/close",
  role: "compliance",
  state: monitoringState,
  cases: () => {
    const base = fc.constant({
      cases: [{ caseId: SOME_ID, version: 1 }],
      outcome: "monitored",
      reason: "looked at them",
    });
    const casesBad = fc.oneof(
      fc.constant(MISSING),
      fc.constantFrom([], "x", [SOME_ID], [{ caseId: SOME_ID }], [{ caseId: "nope", version: 1 }]),
      fc.constantFrom([{ caseId: SOME_ID, version: -1 }], [{ caseId: SOME_ID, version: "1" }]),
      fc.constant([
        { caseId: SOME_ID, version: 1 },
        { caseId: SOME_ID, version: 2 },
      ]),
      fc.constant(
        Array.from({ length: 201 }, (_, i) => ({
          caseId: `${SOME_ID.slice(0, 24)}${String(i).padStart(12, "0")}`,
          version: 1,
        })),
      ),
    );
    return fc.oneof(
      bodyField(base, "cases", casesBad, "bad cases"),
      bodyField(base, "outcome", fc.oneof(notOneOf(outcomes), fc.constant(MISSING)), "bad outcome"),
      bodyField(base, "reason", badReason(2000), "bad reason"),
      bodyLevel(base),
    );
  },
});
const alertFilters = (path: string): Route => ({
  method: "GET",
  path: () => path,
  role: "compliance",
  state: monitoringState,
  cases: () => {
    const base = fc.record({ limit: fc.integer({ min: 1, max: 500 }).map(String) });
    return fc.oneof(
      queryField(base, "ruleId", fc.constantFrom("1", "rule", "x".repeat(36)), "bad ruleId"),
      queryField(base, "caseId", fc.constantFrom("1", "case", "-".repeat(36), `${SOME_ID}0`), "bad caseId"),
      queryField(
        base,
        "subUid",
        notNumeric.filter((s) => s.trim() !== ""),
        "bad subUid",
      ),
      queryField(
        base,
        "severity",
        notOneOf(["low", "medium", "high"]).filter((s) => s.trim() !== ""),
        "bad severity",
      ),
      queryField(
        base,
        "status",
        notOneOf(["open", "cleared", "closed"]).filter((s) => s.trim() !== ""),
        "bad status",
      ),
      queryField(base, "olderThanHours", fc.constantFrom("-1", "1.5", "abc", "1234567"), "bad age"),
      queryField(base, "overdue", fc.constantFrom("false", "yes", "1"), "bad overdue"),
      queryField(base, "limit", badLimit(500), "limit out of range"),
    );
  },
});
add("[bad-input][monitoring.alerts] GET /api/monitoring/alerts", alertFilters("/api/monitoring/alerts"));
add(
  "[bad-input][monitoring.alerts-export] GET /api/monitoring/alerts/export",
  alertFilters("/api/monitoring/alerts/export"),
);

const policyRule = {
  name: "big",
  match: "all",
  when: [{ kind: "value", over: "50000" }],
  then: { kind: "allow", approvals: [{ role: "lead", count: 1 }] },
};
const badRules = fc.constantFrom<unknown>(
  "not a list",
  3,
  null,
  [{}],
  [{ ...policyRule, when: [{ kind: "weather" }] }],
  [{ ...policyRule, when: [{ kind: "value", over: "-1" }] }],
  [{ ...policyRule, when: [{ kind: "coin", coins: [] }] }],
  [{ ...policyRule, then: { kind: "allow", approvals: [{ role: "broker", count: 1 }] } }],
  [{ ...policyRule, then: { kind: "allow", approvals: [{ role: "lead", count: 9 }] } }],
  [policyRule, policyRule],
);
add("[bad-input][policy.draft] POST /api/policy", {
  method: "POST",
  path: () => "/api/policy",
  role: "admin",
  state: policyState,
  cases: () => {
    const base = fc.constant({ rules: [policyRule], note: "bad-input" });
    return fc.oneof(
      bodyField(base, "rules", fc.oneof(badRules, fc.constant(MISSING)), "bad rules"),
      bodyField(base, "note", fc.oneof(longText(501, 1000), fc.integer()), "bad note"),
      bodyLevel(base),
    );
  },
});
add("[bad-input][policy.dry-run] POST /api/policy/dry-run", {
  method: "POST",
  path: () => "/api/policy/dry-run",
  role: "admin",
  state: policyState,
  cases: () => {
    const base = fc.constant({ rules: [policyRule], last: 50 });
    return fc.oneof(
      bodyField(base, "rules", badRules, "bad rules"),
      bodyField(base, "last", fc.oneof(fc.constant(MISSING), fc.constantFrom(0, 2_001, 1.5, "50", null)), "bad last"),
      bodyField(base, "from", fc.constantFrom("yesterday", "2026-13-45", 5), "bad from"),
      bodyField(base, "to", fc.constantFrom("soon", "", 5), "bad to"),
      bodyLevel(base),
    );
  },
});

add("[bad-input][notifications.mark-read] POST /api/notifications/read", {
  method: "POST",
  path: () => "/api/notifications/read",
  role: "lead",
  // What the lead's bell says, read marks included: a refused mark changes none of it.
  state: async (w) => (await w.ctx.lead.get("/api/notifications")).text(),
  cases: () => {
    const base = fc.constant({ through: 1 });
    return fc.oneof(
      bodyField(
        base,
        "through",
        fc.oneof(fc.constant(MISSING), fc.constantFrom(0, -3, 1.5, "7", null, 2 ** 60, true)),
        "bad through",
      ),
      bodyLevel(base),
    );
  },
});

add("[bad-input][webhooks.create] POST /api/admin/webhooks", {
  method: "POST",
  path: () => "/api/admin/webhooks",
  role: "admin",
  state: async (w) => (await w.ctx.admin.get("/api/admin/webhooks")).text(),
  cases: () => {
    const base = fc.constant({
      url: "http://127.0.0.1:9/hook",
      format: "standard",
      audienceRole: "lead",
      events: ["withdrawal.awaiting_approval"],
    });
    return fc.oneof(
      bodyField(
        base,
        "url",
        fc.oneof(
          fc.constant(MISSING),
          fc.constantFrom("", "hooks.example.com", "ftp://a.example/x", "https://u:p@a.example/", "http://a.example/"),
          notAString,
        ),
        "bad url",
      ),
      bodyField(base, "format", fc.oneof(fc.constant(MISSING), notOneOf(["standard", "slack", "teams"])), "bad format"),
      bodyField(
        base,
        "audienceRole",
        fc.oneof(fc.constant(MISSING), notOneOf(["compliance", "broker", "lead", "admin"])),
        "bad audienceRole",
      ),
      bodyField(
        base,
        "events",
        fc.oneof(fc.constant(MISSING), fc.constantFrom([], ["nope"], ["alert.high"], "withdrawal.decided")),
        "bad events",
      ),
      bodyLevel(base),
    );
  },
});

add("[bad-input][notifications.save-preferences] PUT /api/account/notifications", {
  method: "PUT",
  path: () => "/api/account/notifications",
  role: "lead",
  state: async (w) => (await w.ctx.lead.get("/api/account/notifications")).text(),
  cases: () => {
    const base = fc.constant({
      choices: [{ type: "withdrawal.awaiting_approval", channel: "email", mode: "digest" }],
      digestAt: "07:30",
      timeZone: "Europe/Berlin",
    });
    return fc.oneof(
      bodyField(
        base,
        "choices",
        fc.oneof(
          fc.constant(MISSING),
          fc.constantFrom(
            "all",
            [{ type: "nope", channel: "email", mode: "digest" }],
            [{ type: "alert.high", channel: "email", mode: "immediate" }],
            [{ type: "withdrawal.awaiting_approval", channel: "sms", mode: "digest" }],
            [{ type: "withdrawal.awaiting_approval", channel: "email", mode: "hourly" }],
          ),
        ),
        "bad choices",
      ),
      bodyField(
        base,
        "digestAt",
        fc.oneof(fc.constant(MISSING), fc.constantFrom("7:30", "24:00", "07:60", 730)),
        "bad digestAt",
      ),
      bodyField(
        base,
        "timeZone",
        fc.oneof(fc.constant(MISSING), fc.constantFrom("", "Mars/Olympus", 1)),
        "bad timeZone",
      ),
      bodyLevel(base),
    );
  },
});

for (const [name, route] of routes) propertyTest(name, route);

test("[bad-input][monitoring][policy] routes of a path ID alone refuse an ID that names nothing, and change nothing", async ({
  playwright,
  baseURL,
}) => {
  const w = await setUp(playwright, baseURL!);
  const before = [await monitoringState(w), await policyState(w)];
  const ids = ["not-an-id", "-1", "1.5", SOME_ID, "0"];
  const sent: string[] = [];
  for (const id of ids) {
    for (const [role, method, path] of [
      ["compliance", "GET", `/api/monitoring/cases/${id}`],
      ["compliance", "GET", `/api/monitoring/cases/${id}/report`],
      ["compliance", "GET", `/api/monitoring/cases/${id}/records/export`],
      ["compliance", "POST", `/api/monitoring/rule-versions/${id}/backtest`],
      ["compliance", "POST", `/api/monitoring/rule-versions/${id}/activate`],
      ["compliance", "POST", `/api/monitoring/rule-versions/${id}/retire`],
      ["compliance", "POST", `/api/monitoring/rule-versions/${id}/propose-retirement`],
      ["compliance", "POST", `/api/monitoring/rule-versions/${id}/withdraw-retirement`],
      ["compliance", "POST", `/api/monitoring/snooze-requests/${id}/approve`],
      ["compliance", "POST", `/api/monitoring/snooze-requests/${id}/decline`],
      ["compliance", "POST", `/api/monitoring/cases/${SOME_ID}/sanctions/${id}/withdraw-release`],
      ["compliance", "POST", `/api/monitoring/cases/${id}/sanctions/1/withdraw-release`],
      ["admin", "POST", `/api/policy/${id}/publish`],
      ["admin", "POST", `/api/policy/${id}/discard`],
    ] as const) {
      const res = await w.ctx[role].fetch(path, {
        method,
        headers: method === "GET" ? {} : sameOrigin(w.baseURL),
        data: method === "GET" ? undefined : "{}",
        maxRedirects: 0,
      });
      const label = `${method} ${path} → ${res.status()} ${(await res.text()).slice(0, 200)}`;
      sent.push(label);
      expect(res.status(), label).toBeGreaterThanOrEqual(400);
      expect(res.status(), label).toBeLessThan(500);
    }
  }
  expect([await monitoringState(w), await policyState(w)], sent.join("\n")).toEqual(before);
});

test("[bad-input] every proxy route is covered", () => {
  const covered = new Set(
    routes.map(([, r]) => r.path(world ?? ({} as World))).filter((p) => p.startsWith("/api/platform/")),
  );
  for (const id of Object.keys(catalog) as OperationId[]) expect(covered.has(proxyPath(id)), id).toBe(true);
});
