// The leverage record's read side on a real database (PGlite, and PostgreSQL with TEST_DATABASE_URL): each filter
// narrows to exactly the rows it names, pages walk every row once, a bad filter is refused on its field, and the
// current values of many accounts come from one query.
import { beforeAll, describe, expect, it } from "vitest";
import { leverageChangeInputSchema, leverageRecordFiltersSchema, leverageRejectSchema } from "@/lib/api/leverage";
import { fieldErrorsOf } from "@/lib/api/errors";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { domainRefusal } from "@/server/testing";
import { leverageGate } from "./mirror";
import { currentLeverage, leverageRecordRows, recordLeverageSet } from "./record";

const T0 = Date.parse("2026-11-01T00:00:00Z");
const HOUR = 3_600_000;

type Seed = {
  account: string;
  symbol: string;
  mode: "crossed" | "isolated";
  long: string;
  short: string;
  cross: string;
};
const SEEDS: Seed[] = [
  { account: "main", symbol: "BTCUSDT", mode: "crossed", long: "20", short: "20", cross: "5" },
  { account: "sub1001", symbol: "BTCUSDT", mode: "crossed", long: "20", short: "20", cross: "50" },
  { account: "sub1002", symbol: "BTCUSDT", mode: "isolated", long: "8", short: "25", cross: "20" },
  { account: "sub1002", symbol: "ETHUSDT", mode: "crossed", long: "20", short: "20", cross: "10" },
  { account: "sub1003", symbol: "ETHUSDT", mode: "isolated", long: "3", short: "4", cross: "20" },
];

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[leverage][record] on $engine", (engine) => {
  const bed = databaseTestBed(engine);
  beforeAll(async () => {
    for (const [i, s] of SEEDS.entries()) {
      await recordLeverageSet(bed.db, {
        account: s.account,
        productType: "USDT-FUTURES",
        requested: "99",
        answer: {
          symbol: s.symbol,
          marginCoin: "USDT",
          marginMode: s.mode,
          longLeverage: s.long,
          shortLeverage: s.short,
          crossMarginLeverage: s.cross,
        },
        setBy: "lead1@brokerdesk.test",
        setAt: new Date(T0 + i * HOUR),
        reason: `seed ${i}`,
        intentId: String(100 + i),
      });
    }
  });

  const keys = async (f: Parameters<typeof leverageRecordRows>[1]) =>
    (await leverageRecordRows(bed.db, f)).items.map((r) => `${r.account}/${r.symbol}`);

  it("[leverage][record] newest first; the leverage shown is the margin mode's", async () => {
    const { items } = await leverageRecordRows(bed.db);
    expect(items.map((r) => `${r.account}/${r.symbol}`)).toEqual([
      "sub1003/ETHUSDT",
      "sub1002/ETHUSDT",
      "sub1002/BTCUSDT",
      "sub1001/BTCUSDT",
      "main/BTCUSDT",
    ]);
    expect(items.map((r) => r.leverage)).toEqual(["4", "10", "25", "50", "5"]);
    expect(items[0]).toMatchObject({ subUid: "1003", setAt: new Date(T0 + 4 * HOUR).toISOString(), reason: "seed 4" });
    expect(items.at(-1)!.subUid).toBeNull();
  });

  it("[leverage][record] each filter narrows to the rows it names", async () => {
    expect(await keys({ subUid: "1002" })).toEqual(["sub1002/ETHUSDT", "sub1002/BTCUSDT"]);
    expect(await keys({ account: "main" })).toEqual(["main/BTCUSDT"]);
    expect(await keys({ symbol: "ETHUSDT" })).toEqual(["sub1003/ETHUSDT", "sub1002/ETHUSDT"]);
    expect(await keys({ productType: "COIN-FUTURES" })).toEqual([]);
    expect(await keys({ productType: "USDT-FUTURES" })).toHaveLength(5);
    expect(await keys({ above: 10 })).toEqual(["sub1002/BTCUSDT", "sub1001/BTCUSDT"]);
    expect(await keys({ below: 10 })).toEqual(["sub1003/ETHUSDT", "main/BTCUSDT"]);
    expect(await keys({ above: 4, below: 26 })).toEqual(["sub1002/ETHUSDT", "sub1002/BTCUSDT", "main/BTCUSDT"]);
    expect(await keys({ before: new Date(T0 + 2 * HOUR) })).toEqual(["sub1001/BTCUSDT", "main/BTCUSDT"]);
    expect(await keys({ symbol: "BTCUSDT", above: 10, before: new Date(T0 + 2 * HOUR) })).toEqual(["sub1001/BTCUSDT"]);
  });

  it("[leverage][record] pages walk every row once; a cursor it never gave out is refused on cursor", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await leverageRecordRows(bed.db, { limit: 2, cursor });
      seen.push(...page.items.map((r) => `${r.account}/${r.symbol}`));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual((await keys({})).slice());
    const bad = await domainRefusal(leverageRecordRows(bed.db, { cursor: "bm90IG9uZQ" }));
    expect(bad.fieldErrors).toEqual({ cursor: ["cursor is not one this list gave out"] });
  });

  it("[leverage][record] current values of many accounts in one query; unknown accounts are absent", async () => {
    const accounts = ["main", "sub1001", "sub1002", "sub9999", ...Array.from({ length: 5000 }, (_, i) => `sub${i}`)];
    const now = await currentLeverage(bed.db, accounts, "USDT-FUTURES", "BTCUSDT");
    expect([...now.keys()].sort()).toEqual(["main", "sub1001", "sub1002"]);
    expect(now.get("sub1002")).toMatchObject({ leverage: "25", marginMode: "isolated" });
    expect((await currentLeverage(bed.db, [], "USDT-FUTURES", "BTCUSDT")).size).toBe(0);
  });
});

describe("[leverage][record] bad input is refused on its field", () => {
  const fieldsOf = (r: { success: boolean; error?: unknown }) =>
    r.success ? {} : fieldErrorsOf(r.error as Parameters<typeof fieldErrorsOf>[0]);

  it("[leverage][record] the record's filters", () => {
    const bad: [Record<string, string>, string][] = [
      [{ subUid: "12a" }, "subUid"],
      [{ account: "desk01" }, "account"],
      [{ symbol: "BTC-USDT" }, "symbol"],
      [{ productType: "SPOT" }, "productType"],
      [{ above: "1.5" }, "above"],
      [{ below: "0" }, "below"],
      [{ above: "10", below: "11" }, "below"],
      [{ before: "yesterday" }, "before"],
      [{ limit: "501" }, "limit"],
    ];
    for (const [query, field] of bad)
      expect(Object.keys(fieldsOf(leverageRecordFiltersSchema.safeParse(query)))).toEqual([field]);
    expect(leverageRecordFiltersSchema.parse({ symbol: "btcusdt", above: "", before: String(T0) })).toEqual({
      symbol: "BTCUSDT",
      before: new Date(T0),
    });
  });

  it("[leverage][record] the single form and a rejection", () => {
    const ok = { symbol: "BTCUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage: "10" };
    const bad: [Record<string, unknown>, string][] = [
      [{ ...ok, leverage: "0" }, "leverage"],
      [{ ...ok, leverage: "126" }, "leverage"],
      [{ ...ok, key: "Main Account" }, "key"],
      [{ ...ok, reason: "x".repeat(501) }, "reason"],
      [{ ...ok, productType: "SPOT" }, "productType"],
    ];
    for (const [body, field] of bad)
      expect(Object.keys(fieldsOf(leverageChangeInputSchema.safeParse(body)))).toEqual([field]);
    expect(leverageChangeInputSchema.parse(ok)).toMatchObject({ key: "main", reason: "" });
    expect(Object.keys(fieldsOf(leverageRejectSchema.safeParse({ reason: " a " })))).toEqual(["reason"]);
    expect(Object.keys(fieldsOf(leverageRejectSchema.safeParse({})))).toEqual(["reason"]);
  });

  it("[leverage][mirror] E10 through the mirror: refused on its field, or sent to the single form for a second lead", async () => {
    const e10 = { symbol: "BTCUSDT", productType: "USDT-FUTURES", leverage: "80" };
    const refused = await domainRefusal(
      leverageGate(null as never, e10, async () => ({
        verdict: "refuse",
        policyVersion: 1,
        rule: "r",
        field: "leverage",
        message: "leverage must be at most 50",
      })),
    );
    expect([refused.status, refused.fieldErrors]).toEqual([400, { leverage: ["leverage must be at most 50"] }]);
    const waits = await domainRefusal(
      leverageGate(null as never, e10, async () => ({ verdict: "second-lead", policyVersion: 1, rule: "r", why: "w" })),
    );
    expect(waits.code).toBe("workflow_route");
    await expect(
      leverageGate(null as never, e10, async () => ({ verdict: "allow", policyVersion: null })),
    ).resolves.toBeUndefined();
  });
});
