import "server-only";
// Every preset fires on its case and stays silent on the near-miss beside it (one step under a threshold,
// one hour outside a window, one sub-account short), and agrees with the reference on both.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { RuleSpec } from "@/lib/api/monitoring/rule-kinds";
import { databaseTestBed } from "@/server/db/testing";
import { evaluateScope } from "./evaluate";
import {
  activeVersion,
  alertKeys,
  clearMonitoring,
  referenceKeys,
  writeLedger,
  type TestDeposit,
  type TestLedger,
  type TestWithdrawal,
} from "./testing";

const H = 3_600_000;
const D = 24 * H;
const T = Date.UTC(2026, 2, 10, 12);
let n = 0;
const dep = (subUid: string, coin: string, amount: string, ctime: number, fromAddress = ""): TestDeposit => ({
  orderId: `k${String(++n).padStart(4, "0")}`,
  subUid,
  coin,
  amount,
  status: "success",
  fromAddress,
  ctime,
});
const wd = (subUid: string, coin: string, amount: string, ms: number, address = "dest1"): TestWithdrawal => ({
  id: randomUUID(),
  subUid,
  coin,
  amount,
  address,
  state: "requested",
  ms,
});
const ledger = (deposits: TestDeposit[], withdrawals: TestWithdrawal[] = [], btcUsdt?: string): TestLedger => ({
  deposits,
  withdrawals,
  prices: btcUsdt ? [{ coin: "BTC", day: "2026-03-10", usdt: btcUsdt }] : [],
});

type Case = { name: string; spec: RuleSpec; fires: TestLedger; nearMiss: TestLedger };
const CASES: Case[] = [
  {
    name: "large deposit in the coin: at the threshold, not one step under",
    spec: { kind: "large_deposit", params: { unit: "coin", coin: "BTC", minAmount: "10" } },
    fires: ledger([dep("1", "BTC", "10", T)]),
    nearMiss: ledger([dep("1", "BTC", "9.99999999", T), dep("1", "ETH", "50", T)]),
  },
  {
    name: "large deposit in USDT: valued at the day's price; no price, no value",
    spec: { kind: "large_deposit", params: { unit: "usdt", minAmount: "100000" } },
    fires: ledger([dep("1", "BTC", "2", T)], [], "50000"),
    nearMiss: ledger([dep("1", "BTC", "1.99", T), dep("2", "ETH", "1000", T)], [], "50000"),
  },
  {
    name: "first deposit above a size: the first only",
    spec: { kind: "first_deposit", params: { unit: "coin", coin: "BTC", minAmount: "5" } },
    fires: ledger([dep("1", "BTC", "5", T), dep("1", "BTC", "50", T + H)]),
    nearMiss: ledger([dep("1", "BTC", "1", T), dep("1", "BTC", "50", T + H)]),
  },
  {
    name: "structuring: three just under the threshold inside the window",
    spec: {
      kind: "structuring",
      params: { coin: "USDT", threshold: "10000", marginPct: 10, minCount: 3, windowHours: 24 },
    },
    fires: ledger([dep("1", "USDT", "9500", T), dep("1", "USDT", "9900", T + H), dep("1", "USDT", "9000", T + 2 * H)]),
    nearMiss: ledger([
      dep("1", "USDT", "9500", T),
      dep("1", "USDT", "9900", T + H),
      dep("1", "USDT", "8999", T + 2 * H),
      dep("1", "USDT", "10000", T + 3 * H),
      dep("1", "USDT", "9600", T + 25 * H + 1),
    ]),
  },
  {
    name: "velocity: more deposits than the limit in the window",
    spec: { kind: "velocity", params: { source: "deposits", measure: "count", limit: "2", windowHours: 1 } },
    fires: ledger([dep("1", "BTC", "1", T), dep("1", "ETH", "1", T + 1000), dep("1", "BTC", "1", T + H)]),
    nearMiss: ledger([dep("1", "BTC", "1", T), dep("1", "ETH", "1", T + H + 1), dep("2", "BTC", "1", T)]),
  },
  {
    name: "pass-through: a request of 90 % of what came in within the window",
    spec: { kind: "pass_through", params: { pct: 90, windowHours: 24 } },
    fires: ledger([dep("1", "USDT", "1000", T)], [wd("1", "USDT", "900", T + 3 * H)]),
    nearMiss: ledger(
      [dep("1", "USDT", "1000", T), dep("2", "USDT", "1000", T - 25 * H)],
      [wd("1", "USDT", "899.99", T + 3 * H), wd("2", "USDT", "1000", T), wd("1", "BTC", "1", T)],
    ),
  },
  {
    name: "dormant then active: 30 days of nothing, then a deposit above the amount",
    spec: { kind: "dormant_active", params: { dormantDays: 30, unit: "coin", coin: "BTC", minAmount: "1" } },
    fires: ledger([dep("1", "ETH", "1", T - 30 * D), dep("1", "BTC", "1", T)]),
    nearMiss: ledger([dep("1", "ETH", "1", T - 30 * D + 1), dep("1", "BTC", "1", T), dep("2", "BTC", "5", T)]),
  },
  {
    name: "shared address: one source used by three sub-accounts, every one of them alerted",
    spec: { kind: "shared_address", params: { side: "deposit_source", minSubAccounts: 3, windowHours: 48 } },
    fires: ledger([
      dep("1", "BTC", "1", T, "bc1x"),
      dep("2", "BTC", "1", T + H, "bc1x"),
      dep("3", "ETH", "1", T + 2 * H, "bc1x"),
    ]),
    nearMiss: ledger([
      dep("1", "BTC", "1", T - 49 * H, "bc1x"),
      dep("2", "BTC", "1", T + H, "bc1x"),
      dep("3", "ETH", "1", T + 2 * H, "bc1x"),
      dep("4", "ETH", "1", T + 2 * H, "bc1y"),
      dep("5", "ETH", "1", T + 2 * H, ""),
      dep("6", "ETH", "1", T + 2 * H, ""),
      // Internal transfers from one account (the broker's main one, say) are not an address shared on chain.
      ...["7", "8", "9"].map((s) => ({
        ...dep(s, "USDT", "1", T + 3 * H, "5000000001"),
        dest: "internal_transfer" as const,
      })),
    ]),
  },
  {
    name: "new destination: first use of an address, not a second",
    spec: { kind: "new_destination", params: { lookbackDays: 90 } },
    fires: ledger([], [wd("1", "USDT", "5", T, "addrNew")]),
    nearMiss: ledger([], []),
  },
  {
    name: "aggregate: sum of successful BTC deposits over 1.5 in six hours",
    spec: {
      kind: "aggregate",
      params: {
        source: "deposits",
        measure: "sum",
        coin: "BTC",
        statuses: ["success"],
        op: ">",
        threshold: "1.5",
        windowHours: 6,
      },
    },
    fires: ledger([dep("1", "BTC", "1", T), dep("1", "BTC", "0.6", T + 5 * H)]),
    nearMiss: ledger([dep("1", "BTC", "1", T), dep("1", "BTC", "0.5", T + 5 * H), dep("1", "BTC", "1", T + 12 * H)]),
  },
  {
    name: "aggregate of one sub-account: its own deposits count, another's do not",
    spec: {
      kind: "aggregate",
      params: { source: "deposits", measure: "count", subUid: "2", op: ">=", threshold: "2", windowHours: 6 },
    },
    fires: ledger([dep("2", "BTC", "1", T), dep("2", "ETH", "1", T + H)]),
    nearMiss: ledger([dep("1", "BTC", "1", T), dep("1", "ETH", "1", T + H), dep("2", "BTC", "1", T)]),
  },
];

describe("[monitoring][kinds]", () => {
  const bed = databaseTestBed();

  it.each(CASES)("[monitoring][kinds] $name", async ({ spec, fires, nearMiss }) => {
    for (const [l, expectFire] of [
      [fires, true],
      [nearMiss, false],
    ] as const) {
      await clearMonitoring(bed.db);
      await writeLedger(bed.db, l);
      const v = await activeVersion(bed.db, spec);
      await evaluateScope(bed.db, { subUid: null, since: null }, undefined, [v]);
      const keys = await alertKeys(bed.db, v.id);
      expect(keys.length > 0, expectFire ? "fires" : "near-miss stays silent").toBe(expectFire);
      expect(keys).toEqual(referenceKeys(l, spec));
    }
  });

  it("[monitoring][kinds] new destination stays silent for an address the sub-account already sent to", async () => {
    await clearMonitoring(bed.db);
    const l = ledger(
      [],
      [{ ...wd("1", "USDT", "5", T - D, "addrOld"), state: "confirmed" }, wd("1", "USDT", "5", T, "addrOld")],
    );
    await writeLedger(bed.db, l);
    const v = await activeVersion(bed.db, { kind: "new_destination", params: { lookbackDays: 90 } });
    await evaluateScope(bed.db, { subUid: "1", since: T }, undefined, [v]);
    expect(await alertKeys(bed.db, v.id)).toEqual([]);
  });

  it.each(["requested", "rejected", "cancelled"] as const)(
    "[monitoring][kinds] new destination: an earlier request %s, never sent, does not make the address familiar",
    async (state) => {
      await clearMonitoring(bed.db);
      const later = wd("1", "USDT", "30000", T, "addrOld");
      const l = ledger([], [{ ...wd("1", "USDT", "1", T - D, "addrOld"), state }, later]);
      await writeLedger(bed.db, l);
      const v = await activeVersion(bed.db, { kind: "new_destination", params: { lookbackDays: 90 } });
      await evaluateScope(bed.db, { subUid: "1", since: T }, undefined, [v]);
      expect(await alertKeys(bed.db, v.id)).toEqual([`1|w:${later.id}`]);
    },
  );

  it("[monitoring][kinds] new destination: a request sent only after the new one was made does not count", async () => {
    await clearMonitoring(bed.db);
    const later = wd("1", "USDT", "30000", T, "addrOld");
    const l = ledger([], [{ ...wd("1", "USDT", "1", T - D, "addrOld"), state: "confirmed", sentMs: T + H }, later]);
    await writeLedger(bed.db, l);
    const v = await activeVersion(bed.db, { kind: "new_destination", params: { lookbackDays: 90 } });
    await evaluateScope(bed.db, { subUid: "1", since: T }, undefined, [v]);
    expect(await alertKeys(bed.db, v.id)).toEqual([`1|w:${later.id}`]);
  });

  it("[monitoring][kinds] shared address alerts each sub-account of the group", async () => {
    await clearMonitoring(bed.db);
    await writeLedger(bed.db, CASES.find((c) => c.spec.kind === "shared_address")!.fires);
    const v = await activeVersion(bed.db, CASES.find((c) => c.spec.kind === "shared_address")!.spec);
    await evaluateScope(bed.db, { subUid: null, since: null }, undefined, [v]);
    expect((await alertKeys(bed.db, v.id)).map((k) => k.split("|")[0])).toEqual(["1", "2", "3"]);
  });
});
