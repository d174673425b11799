// Property tests of the catalog's request schemas: what the proxy and the simulator both parse
// with. Many more runs than the HTTP suite (e2e/bad-input.api.spec.ts) can afford. Fixed seed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import { OPERATION_IDS, catalog, type OperationId } from "@/lib/platform/catalog";

const SEED = 7_007;
const RUNS = 400;
const NOW = Date.now();
const DAY = 86_400_000;

/** A valid input per operation (times relative to now, so E4's retention holds). */
const VALID: Record<OperationId, Record<string, string>> = {
  "deposits.list": { userId: "1234567", startTime: String(NOW - DAY), endTime: String(NOW), limit: "50" },
  "subaccounts.assets": { subUid: "88886666", assetType: "all" },
  "planOrders.history": { symbol: "BTCUSDT", startTime: String(NOW - DAY), endTime: String(NOW), limit: "100" },
  "fills.list": { symbol: "BTCUSDT", startTime: String(NOW - DAY), endTime: String(NOW), limit: "10" },
  "withdrawals.submit": {
    subUid: "88886666",
    coin: "USDT",
    dest: "on_chain",
    address: "TQ3pYk1bLkS1mC9sLrZ3nHq5xVgqYq2Wm4",
    amount: "25.5",
  },
  "subaccounts.create": { subaccountName: "desk01@example.com", label: "desk" },
  "rebates.get": { uid: "88886666" },
  "market.trades": { symbol: "BTCUSDT", startTime: String(NOW - DAY), endTime: String(NOW), limit: "500" },
  "riskUnits.bind": { uid: "88886666", operate: "bind", riskUnitId: "77770000" },
  "leverage.set": { symbol: "BTCUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage: "20" },
  "oiLimits.list": { productType: "USDT-FUTURES" },
};

const TIME_FIELDS = ["startTime", "endTime"];
const UID_FIELDS: Partial<Record<OperationId, string[]>> = {
  "deposits.list": ["userId"],
  "subaccounts.assets": ["subUid"],
  "withdrawals.submit": ["subUid"],
  "rebates.get": ["uid"],
  "riskUnits.bind": ["uid", "riskUnitId"],
};

const shapeOf = (id: OperationId): string[] => Object.keys((catalog[id].request as unknown as z.ZodMiniObject).shape);
const parse = (id: OperationId, input: unknown) => catalog[id].request.safeParse(input);
const named = (id: OperationId, input: unknown) => [
  ...new Set((parse(id, input).error?.issues ?? []).map((i) => String(i.path[0] ?? ""))),
];

const anyJson = fc.oneof(fc.string({ maxLength: 20, unit: "binary" }), fc.jsonValue({ maxDepth: 2 }));
const notAString = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);
const run = (p: fc.IAsyncProperty<never> | fc.IProperty<never>) =>
  fc.assert(p as fc.IProperty<never>, { seed: SEED, numRuns: RUNS });

describe("[catalog][request] properties", () => {
  it("every operation's valid input is accepted (the bases the properties below start from)", () => {
    for (const id of OPERATION_IDS) expect(parse(id, VALID[id]).error?.issues ?? [], id).toEqual([]);
  });

  it.each(OPERATION_IDS)("[%s] any object: parsing never throws, and a refusal names fields of the operation", (id) => {
    const keys = shapeOf(id);
    run(
      fc.property(fc.dictionary(fc.constantFrom(...keys, "x", "__proto__"), anyJson, { maxKeys: 6 }), (input) => {
        const result = parse(id, input);
        for (const issue of result.error?.issues ?? [])
          expect(keys, JSON.stringify(issue)).toContain(String(issue.path[0]));
      }) as never,
    );
  });

  it.each(OPERATION_IDS)("[%s] one field of a valid input made a non-string: refused naming that field only", (id) => {
    run(
      fc.property(fc.constantFrom(...shapeOf(id)), notAString, (field, value) => {
        expect(named(id, { ...VALID[id], [field]: value }), `${field}=${JSON.stringify(value)}`).toEqual([field]);
      }) as never,
    );
  });

  it.each(OPERATION_IDS.filter((id) => shapeOf(id).includes("startTime")))(
    "[%s] a malformed timestamp: refused naming that field only",
    (id) => {
      run(
        fc.property(
          fc.constantFrom(...TIME_FIELDS),
          fc.string({ maxLength: 20 }).filter((s) => !/^\d{1,16}$/.test(s)),
          (field, value) => {
            expect(named(id, { ...VALID[id], [field]: value }), `${field}=${JSON.stringify(value)}`).toEqual([field]);
          },
        ) as never,
      );
    },
  );

  it.each(Object.keys(UID_FIELDS) as OperationId[])(
    "[%s] a UID with anything but digits: refused naming that field only",
    (id) => {
      run(
        fc.property(
          fc.constantFrom(...UID_FIELDS[id]!),
          fc.string({ minLength: 1, maxLength: 20, unit: "binary" }).filter((s) => !/^\d+$/.test(s)),
          (field, value) => {
            expect(named(id, { ...VALID[id], [field]: value }), `${field}=${JSON.stringify(value)}`).toEqual([field]);
          },
        ) as never,
      );
    },
  );

  it.each(OPERATION_IDS)(
    "[%s] whatever is accepted is well-formed: UIDs digits, times ms timestamps, limit within the paging maximum",
    (id) => {
      const keys = shapeOf(id);
      const value = fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.stringMatching(/^\d{1,18}$/),
        fc.constantFrom(...Object.values(VALID[id])),
      );
      run(
        fc.property(fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length }), (input) => {
          const result = parse(id, { ...VALID[id], ...input });
          if (!result.success) return;
          const out = result.data as Record<string, string | undefined>;
          for (const f of UID_FIELDS[id] ?? []) if (out[f]) expect(out[f], f).toMatch(/^\d+$/);
          for (const f of TIME_FIELDS) if (out[f] !== undefined) expect(out[f], f).toMatch(/^\d{1,16}$/);
          const paging = catalog[id].paging;
          if (paging && out.limit !== undefined) {
            expect(Number(out.limit)).toBeGreaterThanOrEqual(1);
            expect(Number(out.limit)).toBeLessThanOrEqual(paging.limit.max);
          }
        }) as never,
      );
    },
  );
});
