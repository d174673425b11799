// Bad input on every leverage-plan route: refused on its field (a CSV on its line and column), nothing written and
// nothing sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPlanSchema,
  planTargetsSchema,
  targetFiltersSchema,
  type CreatePlanInput,
} from "@/lib/api/leverage-plans";
import { fieldErrorsOf } from "@/lib/api/errors";
import type { Db } from "@/server/db";
import { databaseTestBed } from "@/server/db/testing";
import { CredentialStore } from "@/server/platform/credentials";
import { startSimulator, type Simulator } from "@/server/simulator";
import { addStaff, domainRefusal, staffSession } from "@/server/testing";
import {
  approvePlan,
  cancelPlan,
  createPlan,
  getPlan,
  pausePlan,
  previewPlan,
  resumePlan,
  retryFailed,
  startPlan,
} from "./plans";
import { planReportExport, planTargets } from "./report";
import { e10Calls, planBed, type PlanBed } from "./testing";

const lead = staffSession("lead", "lead1");
const noKick = async () => undefined;

describe("[leverage][plans][bad-input] every route refuses bad input on its field, writing nothing", () => {
  const database = databaseTestBed();
  let db: Db;
  let sim: Simulator;
  let bed: PlanBed;
  let credentials: CredentialStore;
  beforeAll(async () => {
    db = database.db;
    sim = await startSimulator({ port: 0 });
    bed = await planBed(sim, db, 3);
    credentials = new CredentialStore(bed.keys);
    await addStaff(db, [lead]);
  }, 60_000);
  afterAll(async () => sim?.close());

  const fieldsOf = (
    schema: typeof planTargetsSchema | typeof createPlanSchema | typeof targetFiltersSchema,
    v: unknown,
  ) => {
    const r = schema.safeParse(v);
    expect(r.success).toBe(false);
    return Object.keys(fieldErrorsOf(r.error!));
  };
  const base = { productType: "USDT-FUTURES", source: "list", reason: "risk event" };
  const written = async () =>
    (
      await db.query<{ n: number }>(
        "SELECT (SELECT count(*) FROM leverage_plans) + (SELECT count(*) FROM leverage_plan_targets) AS n",
      )
    ).rows[0]!.n;

  it("[leverage][plans][bad-input] the schemas name the field", () => {
    expect(fieldsOf(planTargetsSchema, { ...base, productType: "SPOT" })).toEqual(["productType"]);
    expect(fieldsOf(planTargetsSchema, { ...base, source: "everyone" })).toEqual(["source"]);
    expect(fieldsOf(planTargetsSchema, { ...base, leverage: "0" })).toEqual(["leverage"]);
    expect(fieldsOf(planTargetsSchema, { ...base, leverage: "10x" })).toEqual(["leverage"]);
    expect(fieldsOf(planTargetsSchema, { ...base, symbol: "btc usdt" })).toEqual(["symbol"]);
    expect(fieldsOf(planTargetsSchema, { ...base, marginCoin: "usdt" })).toEqual(["marginCoin"]);
    expect(fieldsOf(planTargetsSchema, { ...base, riskUnit: "unit-1" })).toEqual(["riskUnit"]);
    expect(fieldsOf(planTargetsSchema, { ...base, above: "-1" })).toEqual(["above"]);
    expect(fieldsOf(planTargetsSchema, { ...base, keyOnly: "yes" })).toEqual(["keyOnly"]);
    expect(fieldsOf(createPlanSchema, { ...base, reason: " " })).toEqual(["reason"]);
    expect(fieldsOf(createPlanSchema, { ...base, reason: undefined })).toEqual(["reason"]);
    expect(fieldsOf(targetFiltersSchema, { state: "lost" })).toEqual(["state"]);
    expect(fieldsOf(targetFiltersSchema, { limit: "5000" })).toEqual(["limit"]);
  });

  const plan = (v: Record<string, unknown>): CreatePlanInput => createPlanSchema.parse({ ...base, ...v });
  const refusedOn = async (v: Record<string, unknown>) => {
    const before = await written();
    const p = await domainRefusal(previewPlan(db, credentials, "lead", plan(v)));
    const c = await domainRefusal(createPlan(db, credentials, lead, plan(v)));
    expect(c.fieldErrors).toEqual(p.fieldErrors);
    expect(await written()).toBe(before);
    return c.fieldErrors!;
  };

  it.each([
    [{ uids: "", symbol: "BTCUSDT", leverage: "5" }, "uids", /at least one/],
    [{ uids: "123,abc", symbol: "BTCUSDT", leverage: "5" }, "uids", /"abc" is not a UID/],
    [{ uids: "123", leverage: "5" }, "symbol", /required/],
    [{ uids: "123", symbol: "BTCUSDT" }, "leverage", /required/],
    [{ uids: "123", symbol: "DOGEUSDT", leverage: "75" }, "leverage", /at most 50 for DOGEUSDT/],
    [{ source: "filter", symbol: "BTCUSDT", leverage: "5", above: "20", below: "10" }, "below", /more than above/],
    [{ source: "filter", symbol: "BTCUSDT", leverage: "5", label: "no such label anywhere" }, "source", /matches no/],
    [{ source: "csv" }, "csv", /required/],
    [
      { source: "csv", csv: "uid,symbol\n1,BTCUSDT" },
      "csv",
      /line 1, column leverage: the header has no column leverage/,
    ],
    [{ source: "csv", csv: "uid,symbol,leverage\n123,BTCUSDT,10\n12x,BTCUSDT,10" }, "csv", /line 3, column uid/],
    [
      { source: "csv", csv: "uid,symbol,leverage\n123,BTCUSDT,10\n\n124,BTCUSDT,ten" },
      "csv",
      /line 4, column leverage/,
    ],
    [
      { source: "csv", csv: "symbol,leverage,uid\nETHUSDT,101,5" },
      "csv",
      /line 2, column leverage: leverage must be at most 100/,
    ],
    [
      { source: "csv", csv: "uid,symbol,leverage\n5,BTCUSDT,3\n5,BTCUSDT,4" },
      "csv",
      /line 3, column uid: 5 BTCUSDT is already on line 2/,
    ],
    [
      { source: "csv", csv: 'uid,symbol,leverage\n"5,BTCUSDT,3' },
      "csv",
      /line 2, column 1: a quoted field is not closed/,
    ],
    [{ source: "csv", csv: "uid,symbol,leverage\n" }, "csv", /no targets/],
  ])("%j is refused on %s", async (v, field, message) => {
    const errors = await refusedOn(v);
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field]![0]).toMatch(message);
  });

  it("[leverage][plans][bad-input] a plan's routes refuse an unknown plan, or one not in the state they act on, changing nothing", async () => {
    for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      expect((await domainRefusal(getPlan(db, id))).code).toBe("not_found");
      expect((await domainRefusal(planTargets(db, id, {}))).code).toBe("not_found");
      expect((await domainRefusal(planReportExport(db, lead, id))).code).toBe("not_found");
      for (const act of [
        () => startPlan(db, lead, id, noKick),
        () => pausePlan(db, id),
        () => resumePlan(db, id, noKick),
        () => cancelPlan(db, id),
        () => retryFailed(db, id, noKick),
        () => approvePlan(db, lead, id),
      ])
        expect((await domainRefusal(act())).code).toBe("not_found");
    }
    const p = await createPlan(
      db,
      credentials,
      lead,
      plan({ uids: bed.keyed.join(","), symbol: "BTCUSDT", leverage: "4" }),
    );
    const before = await written();
    expect((await domainRefusal(pausePlan(db, p.id))).code).toBe("already_decided");
    expect((await domainRefusal(resumePlan(db, p.id, noKick))).code).toBe("already_decided");
    expect((await domainRefusal(retryFailed(db, p.id, noKick))).code).toBe("already_decided");
    // A plan the policy let start needs no approval; a person with no staff account approves nothing.
    const lead2 = staffSession("lead", "lead2");
    await addStaff(db, [lead2]);
    expect((await domainRefusal(approvePlan(db, lead2, p.id))).code).toBe("already_decided");
    expect((await domainRefusal(approvePlan(db, staffSession("lead", "lead9"), p.id))).code).toBe("forbidden");
    expect((await getPlan(db, p.id)).state).toBe("ready");
    expect(await written()).toBe(before);
    expect(e10Calls(sim)).toBe(0);
  });
});
