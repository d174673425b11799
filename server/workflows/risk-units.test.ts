import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/api/errors";
import { PlatformError } from "@/server/platform/errors";
import { workflowTestBed } from "@/server/testing";
import { BOUND_OUTSIDE } from "@/lib/api/risk-units/reads";
import { bindOrUnbind, listBindings, listBoundElsewhere, precheck } from "./risk-units";

const lead = { userId: "1", email: "lead@test", name: null, role: "lead" as const };
const bed = workflowTestBed();

describe("[riskUnits.bind][workflow]", () => {
  it("refuses uid = riskUnitId before sending", async () => {
    await expect(precheck(bed.db, { uid: "7", riskUnitId: "7", operate: "bind" })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { uid: expect.any(Array) },
    });
  });

  it("refuses a 51st UID for a unit by Brokerdesk's records, naming riskUnitId", async () => {
    for (let i = 0; i < 50; i++) {
      await bed.db.query("INSERT INTO risk_unit_bindings (risk_unit_id, uid, bound_by) VALUES ('900', $1, 'seed')", [
        String(1000 + i),
      ]);
    }
    const err = await precheck(bed.db, { uid: "2000", riskUnitId: "900", operate: "bind" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).fieldErrors?.riskUnitId?.[0]).toMatch(/50 UIDs/);
  });

  it("refuses a UID bound elsewhere by our records", async () => {
    await expect(precheck(bed.db, { uid: "1000", riskUnitId: "901", operate: "bind" })).rejects.toMatchObject({
      fieldErrors: { uid: [expect.stringMatching(/bound to risk unit 900/)] },
    });
  });

  it("binds and unbinds through the platform and keeps the history", async () => {
    const unit = bed.sim.state.riskUnits()[0]!;
    const uid = bed.sim.state
      .subaccountsOf(bed.sim.keys.brokerMain.uid)
      .find((s) => !bed.sim.state.riskUnitOfMember(s.uid) && s.uid !== unit.id)!.uid;
    const bound = await bindOrUnbind(bed.db, bed.client, lead, { uid, riskUnitId: unit.id, operate: "bind" });
    expect(bound.binding).toMatchObject({ uid, riskUnitId: unit.id, state: "bound", boundBy: "lead@test" });
    expect(bed.sim.state.riskUnitOfMember(uid)?.id).toBe(unit.id);
    const unbound = await bindOrUnbind(bed.db, bed.client, lead, { uid, riskUnitId: unit.id, operate: "unbind" });
    expect(unbound.binding.state).toBe("unbound");
    expect((await listBindings(bed.db)).some((b) => b.uid === uid && b.state === "unbound")).toBe(true);
  });

  it("passes a platform refusal through with its code and leaves the records as they were", async () => {
    const unit = bed.sim.state.riskUnits()[0]!;
    const before = (await listBindings(bed.db)).length;
    const err = await bindOrUnbind(bed.db, bed.client, lead, {
      uid: "123456789",
      riskUnitId: unit.id,
      operate: "unbind",
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect((await listBindings(bed.db)).length).toBe(before);
  });

  it("remembers a 49001 (bound to another risk unit) for the page, and forgets it once the UID is bound here", async () => {
    const [unit1, unit2] = bed.sim.state.riskUnits();
    const uid = [...unit1!.members][0]!;
    const err = await bindOrUnbind(bed.db, bed.client, lead, { uid, riskUnitId: unit2!.id, operate: "bind" }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: "49001" });
    expect(await listBoundElsewhere(bed.db)).toEqual([
      expect.objectContaining({ uid, riskUnitId: unit2!.id, code: "49001", refusedBy: "lead@test" }),
    ]);
    expect((await listBindings(bed.db)).some((b) => b.uid === uid)).toBe(false);
    // Released on the platform, bound here: what was remembered no longer holds.
    const released = await bindOrUnbind(bed.db, bed.client, lead, { uid, riskUnitId: unit1!.id, operate: "unbind" });
    // It was bound outside Brokerdesk: by whom and when is not known (not the time of the unbind).
    expect(released.binding).toMatchObject({
      uid,
      state: "unbound",
      boundBy: BOUND_OUTSIDE,
      boundAt: null,
      unboundBy: "lead@test",
    });
    await bindOrUnbind(bed.db, bed.client, lead, { uid, riskUnitId: unit2!.id, operate: "bind" });
    expect(await listBoundElsewhere(bed.db)).toEqual([]);
  });
});
