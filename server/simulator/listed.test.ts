// The simulator's part in screening, over real HTTP: at the default seed one desk (desk23) receives a deposit from
// the sanctioned source that the SDN fixtures list, and no other sub-account does; once synced into the ledger and
// the fixture imported, that source screens as listed. POST /__sim/listed-destinations hands out new addresses
// that pass Brokerdesk's address check, with a CSV line that imports as a block list; bad input is refused.
import { describe, expect, it } from "vitest";
import { databaseTestBed } from "@/server/db/testing";
import { syncSubaccountDeposits } from "@/server/ledger/deposits/sync";
import { freeBudget, untilBackfilled } from "@/server/ledger/testing";
import { importList, screenAddress } from "@/server/screening";
import { fixture } from "@/server/screening/testing";
import { addressProblem } from "@/server/workflows/address-check";
import { deskUid, registerFromSimulator, simulatorTestBed } from "@/server/testing";
import { SANCTIONED_SOURCE } from "./data/sanctioned";

const bed = simulatorTestBed({ simulator: { rateLimits: "off" } });
const t = databaseTestBed();

async function control(method: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${bed.sim.baseUrl}/__sim/listed-destinations`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe("[simulator][screening] the sanctioned source and listed destinations", () => {
  it("[simulator][screening] only desk23 gets a deposit from the sanctioned source, listed once imported", async () => {
    const { sim, client } = bed;
    const desk = deskUid(sim, "desk23");
    const subs = sim.state.subaccountsOf(sim.state.mainUid);
    const from = subs.filter((s) => sim.state.depositsOf(s.uid).some((d) => d.fromAddress === SANCTIONED_SOURCE));
    expect(from.map((s) => s.uid)).toEqual([desk]);
    expect(from[0]!.label).toBe("Desk 23 (sanctioned source)");

    await registerFromSimulator(t.db, from);
    await untilBackfilled(() =>
      syncSubaccountDeposits(desk, { db: t.db, client, budget: freeBudget, backfill: "all" }),
    );
    const { rows } = await t.db.query<{ from_address: string; amount: string; coin: string }>(
      "SELECT from_address, amount::text AS amount, coin FROM ledger_deposits WHERE sub_uid = $1 AND from_address = $2",
      [desk, SANCTIONED_SOURCE],
    );
    expect(rows.map((r) => [r.coin, Number(r.amount)])).toEqual([["USDT", 12000]]);
    expect((await screenAddress(t.db, rows[0]!.from_address)).match).toBe(false);
    await importList(t.db, [fixture("sdn-advanced-legacy.xml")], { importedBy: "compliance@test" });
    const hit = await screenAddress(t.db, rows[0]!.from_address);
    expect(hit.matches.map((m) => [m.asset, m.partyName])).toEqual([
      ["USDT", "NORTHWIND EXCHANGE OU"],
      ["TRX", "NORTHWIND EXCHANGE OU"],
    ]);
  });

  it("[simulator][screening] a listed destination is new, valid, recorded, and imports", async () => {
    const a = await control("POST", {});
    const b = await control("POST", { chain: "TRC20", reason: "listed by e2e" });
    const c = await control("POST", { chain: "ERC20" });
    const d = await control("POST", { chain: "BTC" });
    expect([a.status, b.status, c.status, d.status]).toEqual([200, 200, 200, 200]);
    const all = [a, b, c, d].map((r) => r.json as { address: string; chain: string; csv: string });
    expect(new Set(all.map((x) => x.address)).size).toBe(4);
    for (const x of all) expect([x.chain, addressProblem(x.chain, x.address)]).toEqual([x.chain, null]);
    expect(b.json.csv).toBe(`address,chain,reason\n${b.json.address as string},TRC20,listed by e2e\n`);
    const listed = await control("GET");
    expect(listed.json.sources).toEqual([SANCTIONED_SOURCE]);
    expect((listed.json.destinations as { address: string }[]).map((x) => x.address)).toEqual(
      all.map((x) => x.address),
    );
    const v = await importList(t.db, [b.json.csv as string], { importedBy: "e2e@test", list: "e2e-listed" });
    expect((await screenAddress(t.db, b.json.address as string)).matches.map((m) => m.list)).toEqual(["e2e-listed"]);
    expect(v.counts).toEqual({ TRC20: 1 });
  });

  it("[simulator][screening] bad input is refused on its field and hands out nothing", async () => {
    const before = ((await control("GET")).json.destinations as unknown[]).length;
    const chain = await control("POST", { chain: "DOGE" });
    expect([chain.status, chain.json.error]).toEqual([400, expect.stringMatching(/chain/)]);
    const reason = await control("POST", { reason: 'a,"b"' });
    expect([reason.status, reason.json.error]).toEqual([400, expect.stringMatching(/reason/)]);
    const notJson = await control("POST", "{");
    expect(notJson.status).toBe(400);
    expect(((await control("GET")).json.destinations as unknown[]).length).toBe(before);
  });
});
