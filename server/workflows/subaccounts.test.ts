import { beforeAll, describe, expect, it } from "vitest";
import { registerFromSimulator, workflowTestBed } from "@/server/testing";
import { createSubaccount } from "./subaccounts";

const bed = workflowTestBed();
beforeAll(async () => {
  await registerFromSimulator(bed.db, bed.sim.state.subaccountsOf(bed.sim.keys.brokerMain.uid));
});

const e6Requests = () => bed.sim.stats().operations["subaccounts.create"]?.requests ?? 0;

describe("[subaccounts.create][workflow]", () => {
  it("[subaccounts.create][unique] a name the registry holds, in any case, is refused on subaccountName before E6 is sent (not the platform's 40020 as a 502)", async () => {
    const existing = bed.sim.state.subaccountsOf(bed.sim.keys.brokerMain.uid)[0]!;
    const before = e6Requests();
    const err = await createSubaccount(
      bed.db,
      bed.client,
      { subaccountName: existing.subaccountName.toUpperCase() },
      "lead@test",
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({
      status: 422,
      fieldErrors: { subaccountName: [expect.stringMatching(/already exists .*names are unique/)] },
    });
    expect(e6Requests()).toBe(before);
  });

  it("[subaccounts.create][unique] a label another sub-account of the broker has is refused on label before E6 is sent", async () => {
    const labelled = bed.sim.state.subaccountsOf(bed.sim.keys.brokerMain.uid).find((s) => s.label)!;
    const before = e6Requests();
    const err = await createSubaccount(
      bed.db,
      bed.client,
      { subaccountName: "fresh-label-check@example.com", label: labelled.label },
      "lead@test",
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({
      status: 422,
      fieldErrors: { label: [expect.stringMatching(/labels are unique per broker/)] },
    });
    expect(e6Requests()).toBe(before);
  });

  it("[subaccounts.create] a new name is created on the platform and recorded", async () => {
    const before = e6Requests();
    const { entry } = await createSubaccount(
      bed.db,
      bed.client,
      { subaccountName: "brand-new-desk@example.com", label: "new desk" },
      "lead@test",
    );
    expect(entry).toMatchObject({ subaccountName: "brand-new-desk@example.com", label: "new desk", source: "created" });
    expect(e6Requests()).toBe(before + 1);
    // And now it is taken.
    await expect(
      createSubaccount(bed.db, bed.client, { subaccountName: "Brand-New-Desk@example.com" }, "lead@test"),
    ).rejects.toMatchObject({ status: 422 });
  });

  it("[subaccounts.create][unique] a name only the platform knows is said to be taken, on the name, not as 'Parameter subaccountName error'", async () => {
    const other = bed.sim.state.subaccountsOf(bed.sim.keys.brokerMain.uid)[1]!;
    await bed.db.query("DELETE FROM subaccounts WHERE sub_uid = $1", [other.uid]);
    const before = e6Requests();
    const err = await createSubaccount(bed.db, bed.client, { subaccountName: other.subaccountName }, "lead@test").catch(
      (e: unknown) => e,
    );
    expect(e6Requests()).toBe(before + 1);
    expect(err).toMatchObject({
      status: 422,
      fieldErrors: {
        subaccountName: [
          expect.stringMatching(
            /^The platform already has a sub-account named .* \(platform 40020: Parameter subaccountName error\)$/,
          ),
        ],
      },
    });
  });
});
