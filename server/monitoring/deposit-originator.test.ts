// The Travel Rule on the way in: compliance records a deposit's originator (IVMS101), and the rule kind
// "deposit above X without originator data after N days" raises for the deposits that still lack it, after a
// sync batch and on the sweep's pass over the deposits whose days ran out, and not once data is attached.
import { describe, expect, it } from "vitest";
import { fieldErrorsOf } from "@/lib/api/errors";
import { depositOriginatorInputSchema } from "@/lib/api/ledger/deposit-originator";
import type { RuleSpec } from "@/lib/api/monitoring/rule-kinds";
import { FIXTURE_HOLDER } from "@/lib/ivms101-fixtures";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { domainRefusal, staffSession } from "@/server/testing";
import { getDepositOriginator, setDepositOriginator } from "@/server/workflows/travel-rule-parties";
import { evaluateScope } from "./evaluate";
import { evaluateWaitingKinds } from "./jobs";
import { activeVersion, alertKeys, clearMonitoring, referenceKeys, writeLedger, type TestDeposit } from "./testing";

const D = 86_400_000;
const compliance = staffSession("compliance", "compliance");
const SPEC: RuleSpec = {
  kind: "deposit_without_originator",
  params: { unit: "usdt", minAmount: "1000", afterDays: 3 },
};
const dep = (orderId: string, amount: string, ageMs: number, status = "success"): TestDeposit => ({
  orderId,
  subUid: "11",
  coin: "USDT",
  amount,
  status,
  fromAddress: "",
  ctime: Date.now() - ageMs,
});
const ORIGINATOR = { originatorPersons: [FIXTURE_HOLDER], accountNumber: ["0xabc"] };

describe("[ledger][deposit-originator] the route's input", () => {
  it("refuses bad input on the field (the IVMS101 path)", () => {
    const issues = (originator: unknown) => {
      const r = depositOriginatorInputSchema.safeParse({ originator });
      return r.success ? {} : fieldErrorsOf(r.error);
    };
    expect(issues(ORIGINATOR)).toEqual({});
    expect(Object.keys(issues({ originatorPersons: [] }))).toEqual(["originator.originatorPersons"]);
    expect(Object.keys(issues({ originatorPersons: [{ legalPerson: { name: { nameIdentifier: [] } } }] }))).toEqual([
      "originator.originatorPersons.0.legalPerson.name.nameIdentifier",
      "originator.originatorPersons.0.legalPerson.countryOfRegistration",
    ]);
  });
});

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[monitoring][deposit-originator] $engine", (engine) => {
  const bed = databaseTestBed(engine);

  it("raises for a deposit above X still without originator data after N days; not before, not below, not once attached", async () => {
    await clearMonitoring(bed.db);
    const ledger = {
      deposits: [
        dep("late", "1000", 4 * D),
        dep("attached", "5000", 10 * D),
        dep("young", "5000", 2 * D),
        dep("small", "999.99", 4 * D),
        dep("pending", "5000", 4 * D, "pending"),
      ],
      withdrawals: [],
      prices: [],
    };
    await writeLedger(bed.db, ledger);
    await setDepositOriginator(bed.db, compliance, "attached", { originator: ORIGINATOR });
    const v = await activeVersion(bed.db, SPEC);
    await evaluateScope(bed.db, { subUid: null, since: null }, undefined, [v]);
    expect(await alertKeys(bed.db, v.id)).toEqual(["11|d:late"]);
    expect(await alertKeys(bed.db, v.id)).toEqual(
      referenceKeys({ ...ledger, originators: ["attached"] }, SPEC, { subUid: null, since: null }),
    );
  });

  it("the sweep raises once a deposit's days run out (no sync batch comes), and not for one whose data came in time", async () => {
    await clearMonitoring(bed.db);
    // Their three days ran out an hour ago: no new deposit will trigger a batch for them.
    await writeLedger(bed.db, {
      deposits: [dep("due", "2000", 3 * D + 3_600_000), dep("answered", "2000", 3 * D + 3_600_000)],
      withdrawals: [],
      prices: [],
    });
    await setDepositOriginator(bed.db, compliance, "answered", { originator: ORIGINATOR });
    const v = await activeVersion(bed.db, SPEC);
    expect(await evaluateWaitingKinds(bed.db)).toBe(1);
    expect(await alertKeys(bed.db, v.id)).toEqual(["11|d:due"]);
    expect(await evaluateWaitingKinds(bed.db)).toBe(0);
    expect((await getDepositOriginator(bed.db, "answered")).originator).toEqual(ORIGINATOR);
    expect((await getDepositOriginator(bed.db, "due")).originator).toBeNull();
  });

  it("a batch scoped to recent deposits reaches back the kind's wait", async () => {
    await clearMonitoring(bed.db);
    const ledger = { deposits: [dep("old", "3000", 5 * D)], withdrawals: [], prices: [] };
    await writeLedger(bed.db, ledger);
    const v = await activeVersion(bed.db, SPEC);
    // Its wait ran out two days ago: a batch from one day ago does not reach it, one from three days ago does.
    const since = Date.now() - D;
    await evaluateScope(bed.db, { subUid: "11", since }, undefined, [v]);
    expect(await alertKeys(bed.db, v.id)).toEqual(referenceKeys(ledger, SPEC, { subUid: "11", since }));
    expect(await alertKeys(bed.db, v.id)).toEqual([]);
    await evaluateScope(bed.db, { subUid: "11", since: since - 2 * D }, undefined, [v]);
    expect(await alertKeys(bed.db, v.id)).toEqual(["11|d:old"]);
  });

  it("[ledger.deposit-originator] an unknown deposit is not found, and nothing is written", async () => {
    const e = await domainRefusal(setDepositOriginator(bed.db, compliance, "nope", { originator: ORIGINATOR }));
    expect(e.code).toBe("not_found");
    const { rows } = await bed.db.query("SELECT 1 FROM deposit_originators WHERE order_id = 'nope'");
    expect(rows).toEqual([]);
  });
});
