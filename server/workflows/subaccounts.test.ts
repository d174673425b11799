import { beforeAll, describe, expect, it } from "vitest";
import { databaseTestBed } from "@/server/db/testing";
import type { Simulator } from "@/server/simulator";
import type { PlatformClient } from "@/server/platform/client";
import { registerFromSimulator, simulatorTestBed } from "@/server/testing";
import { createSubaccount } from "./subaccounts";

const t = databaseTestBed();
const platform = simulatorTestBed();
let sim: Simulator;
let client: PlatformClient;
beforeAll(async () => {
  ({ sim, client } = platform);
  await registerFromSimulator(t.db, sim.state.subaccountsOf(sim.keys.brokerMain.uid));
});

const e6Requests = () => sim.stats().operations["subaccounts.create"]?.requests ?? 0;

describe("[subaccounts.create][workflow]", () => {
  it("[subaccounts.create][unique] a name the registry holds, in any case, is refused on subaccountName before E6 is sent (was the platform's 40020, a 502)", async () => {
    const existing = sim.state.subaccountsOf(sim.keys.brokerMain.uid)[0]!;
    const before = e6Requests();
    const err = await createSubaccount(t.db, client, { subaccountName: existing.subaccountName.toUpperCase() }, "lead@test").catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 422, fieldErrors: { subaccountName: [expect.stringMatching(/already exists .*names are unique/)] } });
    expect(e6Requests()).toBe(before);
  });

  it("[subaccounts.create][unique] a label another sub-account of the broker has is refused on label before E6 is sent", async () => {
    const labelled = sim.state.subaccountsOf(sim.keys.brokerMain.uid).find((s) => s.label)!;
    const before = e6Requests();
    const err = await createSubaccount(t.db, client, { subaccountName: "fresh-label-check@example.com", label: labelled.label }, "lead@test").catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 422, fieldErrors: { label: [expect.stringMatching(/labels are unique per broker/)] } });
    expect(e6Requests()).toBe(before);
  });

  it("[subaccounts.create] a new name is created on the platform and recorded", async () => {
    const before = e6Requests();
    const { entry } = await createSubaccount(t.db, client, { subaccountName: "brand-new-desk@example.com", label: "new desk" }, "lead@test");
    expect(entry).toMatchObject({ subaccountName: "brand-new-desk@example.com", label: "new desk", source: "created" });
    expect(e6Requests()).toBe(before + 1);
    // And now it is taken.
    await expect(createSubaccount(t.db, client, { subaccountName: "Brand-New-Desk@example.com" }, "lead@test")).rejects.toMatchObject({ status: 422 });
  });

  it("[issue 16][subaccounts.create][unique] a name only the platform knows is said to be taken, on the name (was 'Parameter subaccountName error')", async () => {
    const other = sim.state.subaccountsOf(sim.keys.brokerMain.uid)[1]!;
    await t.db.query("DELETE FROM subaccounts WHERE sub_uid = $1", [other.uid]);
    const before = e6Requests();
    const err = await createSubaccount(t.db, client, { subaccountName: other.subaccountName }, "lead@test").catch((e: unknown) => e);
    expect(e6Requests()).toBe(before + 1);
    expect(err).toMatchObject({ status: 422, fieldErrors: { subaccountName: [expect.stringMatching(/^The platform already has a sub-account named .* \(platform 40020: Parameter subaccountName error\)$/)] } });
  });
});
