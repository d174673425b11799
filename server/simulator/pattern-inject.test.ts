// POST /__sim/patterns over real HTTP: a monitoring pattern arrives live on the platform (E1 answers its deposits,
// balances follow once they settle), and the preset rule of that pattern, evaluated over the synced ledger, fires
// for the sub-accounts it landed on. Bad input is refused on its field and changes nothing.
import Big from "big.js";
import { describe, expect, it } from "vitest";
import { PRESET_OF } from "@/lib/api/monitoring/presets";
import { databaseTestBed } from "@/server/db/testing";
import { syncSubaccountDeposits } from "@/server/ledger/deposits/sync";
import { COVERAGE_SKEW_MS } from "@/server/ledger/spans";
import { freeBudget, untilBackfilled } from "@/server/ledger/testing";
import { evaluateVersion } from "@/server/monitoring/evaluate";
import { activeVersion } from "@/server/monitoring/testing";
import { deskUid, registerFromSimulator, simulatorTestBed } from "@/server/testing";

const bed = simulatorTestBed({ simulator: { rateLimits: "off", depositSettleMs: 0 } });
const t = databaseTestBed();

async function inject(body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${bed.sim.baseUrl}/__sim/patterns`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** Syncs the sub-accounts into the ledger and evaluates one preset over them: the sub-accounts it fires for. */
async function firesFor(kind: keyof typeof PRESET_OF, uids: string[]): Promise<string[]> {
  const { sim, client } = bed;
  await registerFromSimulator(
    t.db,
    sim.state.subaccountsOf(sim.state.mainUid).filter((s) => uids.includes(s.uid)),
  );
  // A check claims the ledger complete only up to a little before it began (ledger/spans.ts), and a rule judges
  // only what the coverage holds: the pattern has just arrived, so the check starts once that much has passed.
  const newest = Math.max(...uids.flatMap((u) => sim.state.depositsOf(u).map((d) => Number(d.cTime))));
  await new Promise((r) => setTimeout(r, Math.max(0, newest + COVERAGE_SKEW_MS + 20 - Date.now())));
  for (const uid of uids)
    await untilBackfilled(() => syncSubaccountDeposits(uid, { db: t.db, client, budget: freeBudget, backfill: "all" }));
  const v = await activeVersion(t.db, PRESET_OF[kind].spec);
  const raised = [];
  for (const uid of uids) raised.push(...(await evaluateVersion(t.db, v, { subUid: uid, since: null })));
  return [...new Set(raised.map((a) => a.subUid))].sort();
}

describe("[simulator][patterns] POST /__sim/patterns", () => {
  it("[simulator][patterns] structuring lands on a new sub-account, E1 answers it, and the structuring preset fires for it", async () => {
    const r = await inject({ pattern: "structuring" });
    expect(r.status).toBe(200);
    const subUids = r.json.subUids as string[];
    const orderIds = r.json.orderIds as string[];
    expect(subUids).toHaveLength(1);
    expect(orderIds).toHaveLength(7);
    const held = bed.sim.state.depositsOf(subUids[0]!);
    expect(held.map((d) => d.orderId).sort()).toEqual([...orderIds].sort());
    expect(held.every((d) => d.coin === "USDT" && Number(d.amount) >= 9500 && Number(d.amount) < 10000)).toBe(true);
    expect(await firesFor("structuring", subUids)).toEqual(subUids);
  });

  it("[simulator][patterns] pass-through lands on a named desk and credits its balance; shared source on three", async () => {
    const desk = deskUid(bed.sim, "desk20");
    const before = bed.sim.state.balance(desk, "USDT");
    const r = await inject({ pattern: "pass_through", subUids: [desk] });
    expect(r.status).toBe(200);
    expect(new Big(bed.sim.state.balance(desk, "USDT")).minus(before).toString()).toBe("10800000");
    expect(await firesFor("velocity", [desk])).toEqual([desk]);

    const three = ["desk08", "desk09", "desk10"].map((n) => deskUid(bed.sim, n));
    const shared = await inject({ pattern: "shared_source", subUids: three });
    expect(shared.status).toBe(200);
    const sources = new Set(three.map((uid) => bed.sim.state.depositsOf(uid)[0]?.fromAddress));
    expect(sources.size).toBe(1);
    expect(await firesFor("shared_address", three)).toEqual([...three].sort());
  });

  it("[simulator][patterns] bad input is refused on its field and adds nothing", async () => {
    const desk = deskUid(bed.sim, "desk12");
    const count = () => bed.sim.state.depositsOf(desk).length;
    const subs = () => bed.sim.state.subaccountsOf(bed.sim.state.mainUid).length;
    const [n, m] = [count(), subs()];
    const unknown = await inject({ pattern: "dormant" });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatch(/pattern/);
    const wrongCount = await inject({ pattern: "shared_source", subUids: [desk] });
    expect([wrongCount.status, wrongCount.json.error]).toEqual([400, "subUids: shared_source takes 3 sub-account(s)"]);
    const notOurs = await inject({ pattern: "large_first", subUids: ["123"] });
    expect(notOurs.status).toBe(404);
    expect(notOurs.json.error).toMatch(/^subUids: /);
    const frozen = await inject({ pattern: "structuring", subUids: [deskUid(bed.sim, "desk21")] });
    expect(frozen.status).toBe(404);
    expect([count(), subs()]).toEqual([n, m]);
  });
});
