// Travel Rule name screening against the simulator over loopback and a real database (PGlite, and PostgreSQL with
// TEST_DATABASE_URL): a request whose IVMS101 names a party of the active SDN version, as the list writes it
// (exact) or with other accents, case, punctuation and word order (normalised), is matched when it is made and held
// by the system rule's high alert; a name that is not a listed party's, or is one word short of it, matches
// nothing; and the matches are compliance's: the route answers monitoring.read only.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { withdrawalFormSchema, withdrawalResources, type WithdrawalFormInput } from "@/lib/api/withdrawals";
import type { TravelRuleInput } from "@/lib/api/withdrawals/travel-rule";
import { FIXTURE_HOLDER, FIXTURE_TRAVEL_RULE } from "@/lib/ivms101-fixtures";
import { can, ROLES } from "@/lib/rbac";
import type { Db } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { holdsOn } from "@/server/monitoring/hold";
import { NAME_SCREENING_RULE } from "@/server/monitoring/system-rules";
import { addToRegistry, deskUid, simulatorTestBed, staffSession, STEADY_BALANCES } from "@/server/testing";
import { setHolder } from "@/server/workflows/travel-rule-parties";
import { withdrawalNameMatches } from "@/server/workflows/travel-rule";
import { requestWithdrawal } from "@/server/workflows/withdrawal-requests";
import { importList } from "./import";
import { fixture } from "./testing";

const broker = staffSession("broker", "broker");
const TRON = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";

const bed = simulatorTestBed({ simulator: STEADY_BALANCES, resetEachTest: true });
let desk: string;
beforeAll(() => {
  desk = deskUid(bed.sim, "desk06");
});

/** The fixture's Travel Rule data with this beneficiary. */
const withBeneficiary = (person: TravelRuleInput["beneficiary"]["beneficiaryPersons"][number]): TravelRuleInput => ({
  ...FIXTURE_TRAVEL_RULE,
  beneficiary: { beneficiaryPersons: [person] },
});
const natural = (primaryIdentifier: string, secondaryIdentifier?: string) =>
  withBeneficiary({
    naturalPerson: {
      name: { nameIdentifier: [{ primaryIdentifier, secondaryIdentifier, nameIdentifierType: "LEGL" }] },
    },
  });
const legal = (legalPersonName: string) =>
  withBeneficiary({
    legalPerson: { name: { nameIdentifier: [{ legalPersonName, legalPersonNameIdentifierType: "LEGL" }] } },
  });

const form = (travelRule: TravelRuleInput, over: Partial<WithdrawalFormInput> = {}) =>
  withdrawalFormSchema.parse({
    subUid: desk,
    coin: "USDT",
    dest: "on_chain",
    address: TRON,
    amount: "1",
    reason: "client payout",
    travelRule,
    ...over,
  });

const nameAlerts = async (db: Db, requestId: string) =>
  (
    await db.query<{ severity: string; holds: boolean; status: string; records: unknown }>(
      `SELECT severity, holds, status, records FROM monitoring_alerts WHERE rule_id = $1 AND occurrence = $2`,
      [NAME_SCREENING_RULE.ruleId, `n:${requestId}`],
    )
  ).rows;

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[screening][names] on $engine", (engine) => {
  const t = databaseTestBed(engine, { prepare: async (db) => addToRegistry(db, desk, "desk06@x") });
  let sdnVersion: number;

  beforeAll(async () => {
    sdnVersion = (await importList(t.db, [fixture("sdn-advanced.xml")], { importedBy: "compliance@test" })).id;
  });
  beforeEach(async () => {
    bed.sim.state.setBalance(desk, "USDT", "1000");
    await setHolder(t.db, broker, desk, FIXTURE_HOLDER);
  });

  it("the import keeps each party name once with its key", async () => {
    const { rows } = await t.db.query<{ party_name: string; name_key: string }>(
      `SELECT party_name, name_key FROM screening_list_parties WHERE version_id = $1 ORDER BY party_name`,
      [sdnVersion],
    );
    expect(rows).toContainEqual({ party_name: "KOVAL Andrei Petrovich", name_key: "andrei koval petrovich" });
    expect(rows).toContainEqual({ party_name: "NORTHWIND EXCHANGE OU", name_key: "exchange northwind ou" });
    expect(new Set(rows.map((r) => r.party_name)).size).toBe(rows.length);
  });

  it("exact: a name as the list writes it matches, and the request is held by a high alert", async () => {
    const w = await requestWithdrawal(t.db, bed.client, broker, form(legal("NORTHWIND EXCHANGE OU")));
    const person = await requestWithdrawal(t.db, bed.client, broker, form(natural("KOVAL", "Andrei Petrovich")));
    expect((await withdrawalNameMatches(t.db, w.id)).items).toEqual([
      {
        role: "beneficiary",
        name: "NORTHWIND EXCHANGE OU",
        partyName: "NORTHWIND EXCHANGE OU",
        list: "ofac-sdn",
        versionId: sdnVersion,
        match: "exact",
      },
    ]);
    expect((await withdrawalNameMatches(t.db, person.id)).items).toMatchObject([
      { role: "beneficiary", partyName: "KOVAL Andrei Petrovich", match: "exact" },
    ]);
    const [alert] = await nameAlerts(t.db, w.id);
    expect(alert).toMatchObject({ severity: "high", holds: true, status: "open" });
    expect(alert!.records).toMatchObject([
      { kind: "withdrawal", id: w.id, names: [{ party: "NORTHWIND EXCHANGE OU", match: "exact", list: "ofac-sdn" }] },
    ]);
    expect((await holdsOn(t.db, desk)).length).toBeGreaterThan(0);
  });

  it("normalised: other accents, case, punctuation and word order match the same party", async () => {
    for (const travelRule of [
      natural("Kovál", "andrei  PETROVICH"),
      natural("Andrei-Petrovich", "koval"),
      legal("Northwind Exchange, OÜ"),
      legal("ou northwind exchange"),
    ]) {
      const w = await requestWithdrawal(t.db, bed.client, broker, form(travelRule));
      const matches = (await withdrawalNameMatches(t.db, w.id)).items;
      expect(matches).toHaveLength(1);
      expect(matches[0]).toMatchObject({ role: "beneficiary", list: "ofac-sdn", versionId: sdnVersion });
      expect(matches[0]!.match).toBe("normalised");
      expect(["KOVAL Andrei Petrovich", "NORTHWIND EXCHANGE OU"]).toContain(matches[0]!.partyName);
      expect(await nameAlerts(t.db, w.id)).toHaveLength(1);
    }
  });

  it("no match: a name no list holds, or one word short of a listed one, matches nothing and raises nothing", async () => {
    for (const travelRule of [FIXTURE_TRAVEL_RULE, natural("Koval", "Andrei"), legal("NORTHWIND EXCHANGE")]) {
      const w = await requestWithdrawal(t.db, bed.client, broker, form(travelRule));
      expect((await withdrawalNameMatches(t.db, w.id)).items).toEqual([]);
      expect(await nameAlerts(t.db, w.id)).toEqual([]);
    }
  });

  it("the originator is screened too: a holder named as a listed party matches on its role", async () => {
    const holder = structuredClone(FIXTURE_HOLDER);
    holder.naturalPerson!.name.nameIdentifier = [
      { primaryIdentifier: "Muster", secondaryIdentifier: "Max", nameIdentifierType: "LEGL" },
      { primaryIdentifier: "koval", secondaryIdentifier: "Andrei Petrovich", nameIdentifierType: "ALIA" },
    ];
    await setHolder(t.db, broker, desk, holder);
    const w = await requestWithdrawal(t.db, bed.client, broker, form(FIXTURE_TRAVEL_RULE));
    expect((await withdrawalNameMatches(t.db, w.id)).items).toMatchObject([
      { role: "originator", name: "koval, Andrei Petrovich", partyName: "KOVAL Andrei Petrovich", match: "normalised" },
    ]);
  });
});

describe("[screening][names] the matches are compliance's", () => {
  it("the route answers monitoring.read only: compliance and admins, never a lead or a broker", () => {
    const entry = withdrawalResources.nameMatches;
    expect(entry.permission).toBe("monitoring.read");
    expect(ROLES.filter((r) => can(r, entry.permission as "monitoring.read")).sort()).toEqual(["admin", "compliance"]);
    expect(can("lead", "monitoring.read")).toBe(false);
    expect(can("broker", "monitoring.read")).toBe(false);
  });
});
