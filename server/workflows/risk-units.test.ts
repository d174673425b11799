import { beforeAll, describe, expect, it } from "vitest";
import { databaseTestBed } from "@/server/db/testing";
import type { Simulator } from "@/server/simulator";
import type { PlatformClient } from "@/server/platform/client";
import { DomainError } from "@/lib/api/errors";
import { PlatformError } from "@/server/platform/errors";
import { simulatorTestBed } from "@/server/testing";
import { bindOrUnbind, listBindings, listBoundElsewhere, precheck } from "./risk-units";

const lead = { userId: "1", email: "lead@test", name: null, role: "lead" as const };
const t = databaseTestBed();
const platform = simulatorTestBed();
let sim: Simulator;
let client: PlatformClient;
beforeAll(() => void ({ sim, client } = platform));

describe("[riskUnits.bind][workflow]", () => {
  it("refuses uid = riskUnitId before sending", async () => {
    await expect(precheck(t.db, { uid: "7", riskUnitId: "7", operate: "bind" })).rejects.toMatchObject({ status: 422, fieldErrors: { uid: expect.any(Array) } });
  });

  it("refuses a 51st UID for a unit by Brokerdesk's records, naming riskUnitId", async () => {
    for (let i = 0; i < 50; i++) {
      await t.db.query("INSERT INTO risk_unit_bindings (risk_unit_id, uid, bound_by) VALUES ('900', $1, 'seed')", [String(1000 + i)]);
    }
    const err = await precheck(t.db, { uid: "2000", riskUnitId: "900", operate: "bind" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).fieldErrors?.riskUnitId?.[0]).toMatch(/50 UIDs/);
  });

  it("refuses a UID bound elsewhere by our records", async () => {
    await expect(precheck(t.db, { uid: "1000", riskUnitId: "901", operate: "bind" })).rejects.toMatchObject({ fieldErrors: { uid: [expect.stringMatching(/bound to risk unit 900/)] } });
  });

  it("binds and unbinds through the platform and keeps the history", async () => {
    const unit = sim.state.riskUnits()[0]!;
    const uid = sim.state.subaccountsOf(sim.keys.brokerMain.uid).find((s) => !sim.state.riskUnitOfMember(s.uid) && s.uid !== unit.id)!.uid;
    const bound = await bindOrUnbind(t.db, client, lead, { uid, riskUnitId: unit.id, operate: "bind" });
    expect(bound.binding).toMatchObject({ uid, riskUnitId: unit.id, state: "bound", boundBy: "lead@test" });
    expect(sim.state.riskUnitOfMember(uid)?.id).toBe(unit.id);
    const unbound = await bindOrUnbind(t.db, client, lead, { uid, riskUnitId: unit.id, operate: "unbind" });
    expect(unbound.binding.state).toBe("unbound");
    expect((await listBindings(t.db)).some((b) => b.uid === uid && b.state === "unbound")).toBe(true);
  });

  it("passes a platform refusal through with its code and leaves the records as they were", async () => {
    const unit = sim.state.riskUnits()[0]!;
    const before = (await listBindings(t.db)).length;
    const err = await bindOrUnbind(t.db, client, lead, { uid: "123456789", riskUnitId: unit.id, operate: "unbind" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect((await listBindings(t.db)).length).toBe(before);
  });

  it("remembers a 49001 (bound to another risk unit) for the page, and forgets it once the UID is bound here", async () => {
    const [unit1, unit2] = sim.state.riskUnits();
    const uid = [...unit1!.members][0]!;
    const err = await bindOrUnbind(t.db, client, lead, { uid, riskUnitId: unit2!.id, operate: "bind" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "49001" });
    expect(await listBoundElsewhere(t.db)).toEqual([expect.objectContaining({ uid, riskUnitId: unit2!.id, code: "49001", refusedBy: "lead@test" })]);
    expect((await listBindings(t.db)).some((b) => b.uid === uid)).toBe(false);
    // Released on the platform, bound here: what was remembered no longer holds.
    await bindOrUnbind(t.db, client, lead, { uid, riskUnitId: unit1!.id, operate: "unbind" });
    await bindOrUnbind(t.db, client, lead, { uid, riskUnitId: unit2!.id, operate: "bind" });
    expect(await listBoundElsewhere(t.db)).toEqual([]);
  });
});
