// The Travel Rule on withdrawals against the simulator over loopback and a real database (PGlite, and
// PostgreSQL with TEST_DATABASE_URL): a request without the data is refused on the field and writes nothing;
// with it, the IVMS101 data is stored (the originator a copy of the registry holder), shown, exported as
// IVMS101 JSON that parses back, and the export's hash is found in the audit log.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fieldErrorsOf } from "@/lib/api/errors";
import { holderInputSchema } from "@/lib/api/registry/holder";
import { withdrawalFormSchema, withdrawalResources, type WithdrawalFormInput } from "@/lib/api/withdrawals";
import { identityPayloadSchema } from "@/lib/ivms101";
import { FIXTURE_HOLDER, FIXTURE_SELF_HOSTED, FIXTURE_TRAVEL_RULE } from "@/lib/ivms101-fixtures";
import { findExport, sealOf } from "@/server/audit";
import { openDb, type Db } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import {
  addToRegistry,
  deskUid,
  domainRefusal,
  simulatorTestBed,
  staffSession,
  STEADY_BALANCES,
} from "@/server/testing";
import { getHolder, setHolder } from "./travel-rule-parties";
import { travelRuleExport } from "./travel-rule";
import { getWithdrawal } from "./withdrawal-ledger";
import { requestWithdrawal } from "./withdrawal-requests";

const broker = staffSession("broker", "broker");
const lead = staffSession("lead", "lead");
const TRON = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";

const bed = simulatorTestBed({ simulator: STEADY_BALANCES, resetEachTest: true });
let desk: string;
let bare: string;
beforeAll(() => {
  desk = deskUid(bed.sim, "desk04");
  bare = deskUid(bed.sim, "desk05");
});

const form = (over: Partial<WithdrawalFormInput> = {}) =>
  withdrawalFormSchema.parse({
    subUid: desk,
    coin: "USDT",
    dest: "on_chain",
    address: TRON,
    amount: "12.5",
    reason: "client payout",
    ...over,
  });
const countRequests = async (db: Db) =>
  Number((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM withdrawal_requests")).rows[0]!.n);
const balanceReads = () => bed.sim.stats().operations["subaccounts.assets"]?.requests ?? 0;

describe("[withdrawals][travel-rule] the request form's schema names the IVMS101 field", () => {
  const refusals = (travelRule: unknown) => {
    const r = withdrawalResources.request.input.safeParse({
      subUid: "1000001",
      coin: "USDT",
      dest: "on_chain",
      address: TRON,
      amount: "1",
      reason: "payout",
      travelRule,
    });
    return r.success ? {} : fieldErrorsOf(r.error);
  };

  it("a beneficiary without a name is refused on the name's path", () => {
    const noName = structuredClone(FIXTURE_TRAVEL_RULE);
    noName.beneficiary.beneficiaryPersons[0]!.naturalPerson!.name.nameIdentifier = [];
    expect(Object.keys(refusals(noName))).toEqual([
      "travelRule.beneficiary.beneficiaryPersons.0.naturalPerson.name.nameIdentifier",
    ]);
    const blank = structuredClone(FIXTURE_TRAVEL_RULE);
    blank.beneficiary.beneficiaryPersons[0]!.naturalPerson!.name.nameIdentifier[0]!.primaryIdentifier = " ";
    expect(Object.keys(refusals(blank))).toEqual([
      "travelRule.beneficiary.beneficiaryPersons.0.naturalPerson.name.nameIdentifier.0.primaryIdentifier",
    ]);
  });

  it("a VASP's LEI is checked (shape and ISO 17442 check digits); VASP or self-hosted, exactly one", () => {
    const badLei = structuredClone(FIXTURE_TRAVEL_RULE);
    (
      badLei.beneficiaryVASP!.beneficiaryVASP.legalPerson.nationalIdentification as { nationalIdentifier: string }
    ).nationalIdentifier = "9999000EXAMPLEVASP17";
    expect(refusals(badLei)).toEqual({
      "travelRule.beneficiaryVASP.beneficiaryVASP.legalPerson.nationalIdentification.nationalIdentifier": [
        "LEI check digits do not match (ISO 17442)",
      ],
    });
    const both = { ...FIXTURE_TRAVEL_RULE, selfHostedWallet: FIXTURE_SELF_HOSTED.selfHostedWallet };
    expect(Object.keys(refusals(both))).toEqual(["travelRule.beneficiaryVASP"]);
    const neither = { beneficiary: FIXTURE_TRAVEL_RULE.beneficiary };
    expect(Object.keys(refusals(neither))).toEqual(["travelRule.beneficiaryVASP"]);
    const person = structuredClone(FIXTURE_SELF_HOSTED);
    person.beneficiary.beneficiaryPersons[0] = {};
    expect(Object.keys(refusals(person))).toEqual(["travelRule.beneficiary.beneficiaryPersons.0.naturalPerson"]);
    expect(refusals(FIXTURE_TRAVEL_RULE)).toEqual({});
    expect(refusals(FIXTURE_SELF_HOSTED)).toEqual({});
  });

  it("[subaccounts.holder] the holder's schema refuses bad input on the field", () => {
    const issues = (holder: unknown) => {
      const r = holderInputSchema.safeParse({ holder });
      return r.success ? {} : fieldErrorsOf(r.error);
    };
    expect(issues(FIXTURE_HOLDER)).toEqual({});
    const noAddress = structuredClone(FIXTURE_HOLDER);
    delete noAddress.naturalPerson!.geographicAddress;
    delete noAddress.naturalPerson!.dateAndPlaceOfBirth;
    expect(Object.keys(issues(noAddress))).toEqual(["holder.naturalPerson.geographicAddress"]);
    const badCountry = structuredClone(FIXTURE_HOLDER);
    badCountry.naturalPerson!.countryOfResidence = "Germany";
    expect(Object.keys(issues(badCountry))).toEqual(["holder.naturalPerson.countryOfResidence"]);
    expect(Object.keys(issues({ legalPerson: { name: { nameIdentifier: [] } } }))).toEqual([
      "holder.legalPerson.name.nameIdentifier",
      "holder.legalPerson.countryOfRegistration",
    ]);
  });
});

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[withdrawals][travel-rule] $engine", (engine) => {
  const t = databaseTestBed(engine, {
    prepare: async (db) => {
      await addToRegistry(db, desk, "desk04@x");
      await db.query(
        "INSERT INTO subaccounts (sub_uid, subaccount_name, status, source, created_by) VALUES ($1, $2, 'normal', " +
          "'added', 'test')",
        [bare, "desk05@x"],
      );
    },
  });
  beforeEach(async () => {
    bed.sim.state.setBalance(desk, "USDT", "1000");
    bed.sim.state.setBalance(bare, "USDT", "1000");
    await setHolder(t.db, broker, desk, FIXTURE_HOLDER);
  });

  it("an on-chain request without the data is refused on travelRule, before the platform is asked; nothing written", async () => {
    const before = await countRequests(t.db);
    const e = await domainRefusal(requestWithdrawal(t.db, bed.client, broker, form()));
    expect(e.status).toBe(422);
    expect(Object.keys(e.fieldErrors ?? {})).toEqual(["travelRule"]);
    expect(balanceReads()).toBe(0);
    expect(await countRequests(t.db)).toBe(before);
  });

  it("a sub-account without holder data is refused on subUid (the originator comes from it); nothing written", async () => {
    const before = await countRequests(t.db);
    const e = await domainRefusal(
      requestWithdrawal(t.db, bed.client, broker, form({ subUid: bare, travelRule: FIXTURE_TRAVEL_RULE })),
    );
    expect(e.fieldErrors?.subUid?.[0]).toMatch(/has no holder data/);
    expect(await countRequests(t.db)).toBe(before);
  });

  it("with the data: stored with the originator copied from the registry, shown, immutable", async () => {
    const w = await requestWithdrawal(t.db, bed.client, broker, form({ travelRule: FIXTURE_TRAVEL_RULE }));
    const shown = await getWithdrawal(t.db, w.id);
    const tr = shown.travelRule!;
    expect(tr.ivms101.originator).toEqual({ originatorPersons: [FIXTURE_HOLDER], accountNumber: [desk] });
    expect(tr.ivms101.beneficiary).toEqual({
      beneficiaryPersons: FIXTURE_TRAVEL_RULE.beneficiary.beneficiaryPersons,
      accountNumber: [TRON],
    });
    expect(tr.ivms101.beneficiaryVASP).toEqual(FIXTURE_TRAVEL_RULE.beneficiaryVASP);
    expect(tr.ivms101.originatingVASP.originatingVASP.legalPerson.name.nameIdentifier[0]?.legalPersonName).toBeTruthy();
    expect(tr).toMatchObject({ selfHostedWallet: null, thresholdUsdt: "0", valueUsdt: "12.5" });

    // A copy, not a reference: a later edit of the registry's holder leaves the request as it was.
    const renamed = structuredClone(FIXTURE_HOLDER);
    renamed.naturalPerson!.name.nameIdentifier[0]!.primaryIdentifier = "Renamed";
    await setHolder(t.db, broker, desk, renamed);
    expect((await getHolder(t.db, desk)).holder).toEqual(renamed);
    expect((await getWithdrawal(t.db, w.id)).travelRule).toEqual(tr);

    // The database refuses a change to what was requested, the Travel Rule's data included.
    await expect(
      t.db.query("UPDATE withdrawal_requests SET travel_rule = '{}'::jsonb, version = version + 1 WHERE id = $1", [
        w.id,
      ]),
    ).rejects.toThrow(/requested fields cannot change/);
  });

  it("a self-hosted wallet keeps the attestation and who recorded it", async () => {
    const w = await requestWithdrawal(t.db, bed.client, broker, form({ travelRule: FIXTURE_SELF_HOSTED }));
    const tr = (await getWithdrawal(t.db, w.id)).travelRule!;
    expect(tr.ivms101.beneficiaryVASP).toBeUndefined();
    expect(tr.selfHostedWallet).toMatchObject({
      method: "signed_message",
      statement: FIXTURE_SELF_HOSTED.selfHostedWallet!.statement,
      attestedBy: broker.email,
    });
  });

  it("an accountNumber that is not the withdrawal's address is refused on its field; nothing written", async () => {
    const before = await countRequests(t.db);
    const other = structuredClone(FIXTURE_TRAVEL_RULE);
    other.beneficiary.accountNumber = ["TSomewhereElse"];
    const e = await domainRefusal(requestWithdrawal(t.db, bed.client, broker, form({ travelRule: other })));
    expect(Object.keys(e.fieldErrors ?? {})).toEqual(["travelRule.beneficiary.accountNumber"]);
    expect(await countRequests(t.db)).toBe(before);
  });

  it("exported as IVMS101 JSON that parses back, sealed: its hash names the export's audit entry", async () => {
    const w = await requestWithdrawal(t.db, bed.client, broker, form({ travelRule: FIXTURE_TRAVEL_RULE }));
    const file = await travelRuleExport(t.db, lead, w.id, { requestId: "r-1" });
    expect(file.name).toMatch(/^withdrawal_[0-9a-f]{8}_ivms101\.json$/);
    const parsed = identityPayloadSchema.parse(JSON.parse(new TextDecoder().decode(file.bytes)));
    expect(parsed).toEqual((await getWithdrawal(t.db, w.id)).travelRule!.ivms101);
    const found = await findExport(t.db, sealOf(file.bytes).sha256);
    expect(found.map((f) => [f.action, f.actor, f.target])).toEqual([
      ["withdrawals.travel-rule-export", lead.email, `withdrawal:${w.id}`],
    ]);
    const changed = new Uint8Array(file.bytes);
    changed[5] = changed[5] === 0x20 ? 0x21 : 0x20;
    expect(await findExport(t.db, sealOf(changed).sha256)).toEqual([]);
  });

  it("an internal transfer stays within the broker: exempt, and data sent with one is not kept", async () => {
    const other = deskUid(bed.sim, "desk06");
    const w = await requestWithdrawal(
      t.db,
      bed.client,
      broker,
      form({ dest: "internal_transfer", address: other, travelRule: FIXTURE_TRAVEL_RULE }),
    );
    expect(w.travelRule).toBeNull();
    const e = await domainRefusal(travelRuleExport(t.db, lead, w.id));
    expect(e.code).toBe("not_found");
  });

  it("a threshold above the value exempts the request; at or above it, the data is required", async () => {
    const opts = { travelRuleThresholdUsdt: "12.5" };
    const below = await requestWithdrawal(t.db, bed.client, broker, form({ amount: "12.49" }), opts);
    expect(below.travelRule).toBeNull();
    const before = await countRequests(t.db);
    const e = await domainRefusal(requestWithdrawal(t.db, bed.client, broker, form({ amount: "12.5" }), opts));
    expect(Object.keys(e.fieldErrors ?? {})).toEqual(["travelRule"]);
    expect(await countRequests(t.db)).toBe(before);
    const at = await requestWithdrawal(
      t.db,
      bed.client,
      broker,
      form({ amount: "12.5", travelRule: FIXTURE_TRAVEL_RULE }),
      opts,
    );
    expect(at.travelRule).toMatchObject({ thresholdUsdt: "12.5", valueUsdt: "12.5" });
  });

  it("[subaccounts.holder] an unknown sub-account is not found, and nothing is written", async () => {
    const e = await domainRefusal(setHolder(t.db, broker, "999999999", FIXTURE_HOLDER));
    expect(e.code).toBe("not_found");
    const { rows } = await t.db.query("SELECT 1 FROM subaccounts WHERE sub_uid = '999999999'");
    expect(rows).toEqual([]);
  });
});

describe("[withdrawals][travel-rule][audit] npm run audit:which finds the IVMS101 export", () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  const which = (file: string, dataDir: string) =>
    new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" };
      delete env.DATABASE_URL;
      const child = spawn(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "server/cli/audit-which.ts", "--", file],
        { env, stdio: ["ignore", "pipe", "pipe"] },
      );
      let out = "";
      child.stdout.on("data", (b: Buffer) => (out += b.toString()));
      child.stderr.on("data", (b: Buffer) => (out += b.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, out }));
    });

  it("the exported file is found (exit 0), naming the export's action", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "bd-ivms-"));
    dirs.push(dir);
    const dataDir = path.join(dir, "data");
    const db = await openDb({ dataDir: path.join(dataDir, "pglite") });
    let file: string;
    try {
      await addToRegistry(db, desk, "desk04@x");
      bed.sim.state.setBalance(desk, "USDT", "1000");
      const w = await requestWithdrawal(db, bed.client, broker, form({ travelRule: FIXTURE_TRAVEL_RULE }));
      const exported = await travelRuleExport(db, lead, w.id);
      file = path.join(dir, exported.name);
      await writeFile(file, exported.bytes);
    } finally {
      await db.close();
    }
    const found = await which(file, dataDir);
    expect(found.out).toMatch(/found: exported by this entry/);
    expect(found.out).toMatch(/action: {2}withdrawals\.travel-rule-export on withdrawal:/);
    expect(found.code).toBe(0);
  }, 180_000);
});
