import "server-only";
// The simulator's seeded patterns against the preset rules, end to end: a simulator at the default seed (at two
// SIM_SUBACCOUNTS sizes), its deposits synced into the ledger over HTTP and its coins priced from E8, every preset
// evaluated over the whole ledger with its default parameters: each fires for its pattern desks and no other
// sub-account. The withdrawal presets fire on requests, so the pass-through desk asks for what it was sent, and the
// structuring desk for a tenth of its recent deposits (a near miss for pass-through, a new address all the same).
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PRESET_RULES } from "@/lib/api/monitoring/presets";
import type { RuleKind } from "@/lib/api/monitoring/rule-kinds";
import { databaseTestBed } from "@/server/db/testing";
import { syncSubaccountDeposits } from "@/server/ledger/deposits/sync";
import { addPricedCoins, syncCoinPrices } from "@/server/ledger/prices/sync";
import { freeBudget, untilBackfilled } from "@/server/ledger/testing";
import { PATTERN_DESKS, type PatternDesk } from "@/server/simulator/data/pattern-desks";
import { deskUid, registerFromSimulator, simulatorTestBed } from "@/server/testing";
import { evaluateVersion } from "./evaluate";
import { activeVersion } from "./testing";

/** Which pattern desks each preset fires for (with the two requests below), and no other sub-account. */
const EXPECTED: Record<Exclude<RuleKind, "sanctioned_address" | "sanctioned_name">, PatternDesk[]> = {
  large_deposit: ["largeFirst"],
  first_deposit: ["largeFirst"],
  structuring: ["structuring"],
  velocity: ["passThrough"],
  pass_through: ["passThrough"],
  dormant_active: ["dormant"],
  shared_address: ["sharedSourceA", "sharedSourceB", "sharedSourceC"],
  new_destination: ["passThrough", "structuring"],
  // Nobody recorded the originator of the seeded deposits: the large one is flagged after its three days.
  deposit_without_originator: ["largeFirst"],
  aggregate: ["passThrough"],
};

type PriceRow = { coin: string; day: string; usdt: string };
let prices: PriceRow[] | null = null;

describe.each([25, 120])("[monitoring][patterns] the simulator's seeded patterns at %i sub-accounts", (subaccounts) => {
  const bed = simulatorTestBed({ simulator: { seed: 42, scale: 1, rateLimits: "off", subaccounts } });
  const t = databaseTestBed();

  it("[monitoring][patterns] each preset fires for its pattern desks and for no other sub-account", async () => {
    const { sim, client } = bed;
    const db = t.db;
    const subs = sim.state.subaccountsOf(sim.state.mainUid);
    await registerFromSimulator(db, subs);
    const deps = { db, client, budget: freeBudget, backfill: "all" as const };
    const queue = subs.map((s) => s.uid);
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let uid = queue.pop(); uid; uid = queue.pop())
          await untilBackfilled(() => syncSubaccountDeposits(uid!, deps));
      }),
    );
    const { rows: held } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger_deposits");
    const platform = subs.reduce((n, s) => n + sim.state.depositsOf(s.uid).length, 0);
    expect(held[0]!.n).toBe(platform);
    // Coins are priced from E8 once (about 500 calls at its rate): the market is the same at any size.
    if (!prices) {
      await addPricedCoins(db);
      const { rows: coins } = await db.query<{ coin: string }>("SELECT coin FROM ledger_price_sync");
      await Promise.all(
        coins.map(async ({ coin }) => {
          for (let run = await syncCoinPrices(coin, deps); run.remaining > 0; run = await syncCoinPrices(coin, deps));
        }),
      );
      prices = (await db.query<PriceRow>("SELECT coin, day::text AS day, usdt::text AS usdt FROM ledger_coin_prices"))
        .rows;
    } else {
      for (const p of prices)
        await db.query(
          `INSERT INTO ledger_coin_prices (coin, day, usdt, trade_id, trade_ts) VALUES ($1, $2::date, $3, '1', 0)`,
          [p.coin, p.day, p.usdt],
        );
    }
    expect(prices.length).toBeGreaterThan(100);

    const uidOf = (d: PatternDesk) => deskUid(sim, PATTERN_DESKS[d].name);
    // The pass-through desk asks for what it was sent in the last day; the structuring desk for 9,000 USDT. They
    // ask as of the ledger's last check of them: a rule judges a request once the ledger holds the deposits before it.
    for (const [desk, amount] of [
      ["passThrough", "10800000"],
      ["structuring", "9000"],
    ] as const) {
      const checked = await db.query<{ to: string }>(
        `SELECT covered_to::text AS to FROM ledger_sync WHERE job = 'deposits' AND sub_uid = $1`,
        [uidOf(desk)],
      );
      const now = Number(checked.rows[0]!.to);
      await db.query(
        `INSERT INTO withdrawal_requests (id, client_oid, sub_uid, coin, dest, address, amount, reason,
           requested_by, requested_at)
         VALUES ($1, $2, $3, 'USDT', 'on_chain', $4, $5, 'pattern test', 'broker@test',
           timestamptz 'epoch' + $6 * interval '1 millisecond')`,
        [randomUUID(), `pt${desk}`, uidOf(desk), `T${desk}Address`, amount, now],
      );
    }

    const fired: Record<string, string[]> = {};
    const expected: Record<string, string[]> = {};
    for (const preset of PRESET_RULES) {
      const v = await activeVersion(db, preset.spec, { name: preset.name });
      const raised = await evaluateVersion(db, v, { subUid: null, since: null });
      fired[preset.spec.kind] = [...new Set(raised.map((a) => a.subUid))].sort();
      expected[preset.spec.kind] = EXPECTED[preset.spec.kind as keyof typeof EXPECTED].map(uidOf).sort();
    }
    expect(fired).toEqual(expected);
    // The named desks are the ones staff see by their pattern.
    expect(subs.find((s) => s.uid === uidOf("passThrough"))?.label).toBe("Desk 13 (pass-through)");
  }, 300_000);
});
