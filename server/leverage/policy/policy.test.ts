// The leverage policy against a real database (PGlite, and PostgreSQL with TEST_DATABASE_URL): versions drafted
// by one admin and published only by another in good standing (with a fresh factor, as the route asks); the
// published version's verdict, its first matching rule deciding; and the dry run over E10's intents in the audit
// log, each rule's caught changes compared with a reference computed here, apart from the code under test.
import { describe, expect, it } from "vitest";
import { leverageDryRunInput, leveragePolicyResources } from "@/lib/api/leverage-policy";
import { draftPolicyInput } from "@/lib/api/policy";
import { needsFreshFactor } from "@/lib/api/define-resource";
import type { LeverageRule } from "@/lib/leverage-policy";
import { appendAudit } from "@/server/audit";
import { requireFreshFactor } from "@/server/auth/mfa/policy";
import type { Db } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { addStaff, domainRefusal, staffSession } from "@/server/testing";
import { leverageDryRun } from "./dry-run";
import { judgeLeverage } from "./judge";
import { leveragePolicies } from "./versions";

const admin1 = staffSession("admin", "lpadmin1");
const admin2 = staffSession("admin", "lpadmin2");
const USDT = "USDT-FUTURES";

/** BTCUSDT first, then any USDT-FUTURES symbol, then anything at all. */
const RULES: LeverageRule[] = [
  { name: "BTC", productType: USDT, symbol: "BTCUSDT", maxLeverage: 20, secondLeadAt: 10, planSecondLeadAt: 50 },
  { name: "USDT futures", productType: USDT, symbol: "*", maxLeverage: 50, secondLeadAt: 30, planSecondLeadAt: 100 },
  { name: "Anything else", productType: "*", symbol: "*", maxLeverage: 5 },
];

const versions = (db: Db) => leveragePolicies.list(db).then((l) => l.items.map((v) => [v.version, v.state]));
const auditCount = (db: Db) =>
  db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log").then((r) => r.rows[0]!.n);

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[leverage-policy] on $engine", (engine) => {
  const bed = databaseTestBed(engine, { prepare: (db) => addStaff(db, [admin1, admin2]) });

  it("[versions] the drafter cannot publish; an admin on hold cannot; a second admin with a fresh factor does", async () => {
    const db = bed.db;
    expect(await judgeLeverage(db, { productType: USDT, symbol: "BTCUSDT", leverage: "125", targets: 5000 })).toEqual({
      verdict: "allow",
      policyVersion: null,
    });
    const v1 = await leveragePolicies.draft(db, admin1, { rules: RULES, note: "first" });
    expect(v1).toMatchObject({ version: 1, state: "draft", draftedBy: admin1.email, rules: RULES });
    // A draft judges nothing.
    expect(
      (await judgeLeverage(db, { productType: USDT, symbol: "BTCUSDT", leverage: "99", targets: 1 })).verdict,
    ).toBe("allow");
    expect((await domainRefusal(leveragePolicies.publish(db, admin1, v1.version))).code).toBe("own_request");
    await db.query(
      "UPDATE staff_users SET approver_hold = 'created-by-admin', approver_hold_at = now(), approver_hold_by = $2 WHERE id = $1",
      [admin2.userId, admin1.email],
    );
    expect((await domainRefusal(leveragePolicies.publish(db, admin2, v1.version))).code).toBe("approver_on_hold");
    await db.query("UPDATE staff_users SET approver_hold = NULL, approver_hold_at = NULL WHERE id = $1", [
      admin2.userId,
    ]);
    // The route asks a fresh factor before the workflow runs: a factor verified 10 minutes ago is refused.
    expect(needsFreshFactor(leveragePolicyResources.publish, undefined)).toBe(true);
    expect(needsFreshFactor(leveragePolicyResources.discard, undefined)).toBe(true);
    const stale = {
      mfa: { state: "ok" as const, at: Date.now() - 600_000, method: null, enrolled: true, required: false },
    };
    expect(() => requireFreshFactor(stale, 300_000, Date.now())).toThrow(/verify it again/);
    expect(() =>
      requireFreshFactor({ ...stale, mfa: { ...stale.mfa, at: Date.now() } }, 300_000, Date.now()),
    ).not.toThrow();
    expect(await versions(db)).toEqual([[1, "draft"]]);

    const published = await leveragePolicies.publish(db, admin2, v1.version);
    expect(published).toMatchObject({ state: "published", publishedBy: admin2.email });
    expect((await domainRefusal(leveragePolicies.publish(db, admin2, v1.version))).code).toBe("already_decided");
    // The database holds to it too: a publisher who is the author is refused.
    await expect(
      db.query(
        `INSERT INTO leverage_policies (version, state, rules, drafted_by, published_by, published_at)
         VALUES (99, 'superseded', '[]', 'x@y', 'X@y', now())`,
      ),
    ).rejects.toThrow(/publisher_not_author/);
    const v2 = await leveragePolicies.draft(db, admin2, { rules: [] });
    expect((await leveragePolicies.discard(db, admin1, v2.version)).state).toBe("discarded");
    expect((await domainRefusal(leveragePolicies.publish(db, admin1, v2.version))).code).toBe("already_decided");
    expect((await leveragePolicies.published(db))?.version).toBe(1);
    expect(await versions(db)).toEqual([
      [2, "discarded"],
      [1, "published"],
    ]);
  });

  it("[judge] the published version's first matching rule decides; a symbol no rule names falls to the any-symbol rule", async () => {
    const db = bed.db;
    const judge = (productType: string, symbol: string, leverage: string, targets = 1) =>
      judgeLeverage(db, { productType, symbol, leverage, targets });
    expect(await judge(USDT, "BTCUSDT", "25")).toEqual({
      verdict: "refuse",
      policyVersion: 1,
      rule: "BTC",
      field: "leverage",
      message:
        "The leverage policy (version 1, rule “BTC”) allows at most 20× for BTCUSDT on USDT-FUTURES: 25× is refused",
    });
    // 25 is within the next rule's maximum, but BTCUSDT's own rule comes first.
    expect(await judge(USDT, "BTCUSDT", "20")).toMatchObject({ verdict: "second-lead", rule: "BTC" });
    expect(await judge(USDT, "BTCUSDT", "9")).toEqual({ verdict: "allow", policyVersion: 1 });
    expect(await judge(USDT, "btcusdt", "9", 49)).toEqual({ verdict: "allow", policyVersion: 1 });
    const plan = await judge(USDT, "BTCUSDT", "9", 50);
    expect(plan).toMatchObject({ verdict: "second-lead", rule: "BTC" });
    expect(plan.verdict === "second-lead" && plan.why).toMatch(/50 targets are at or above 50/);
    expect(await judge(USDT, "ETHUSDT", "25", 60)).toEqual({ verdict: "allow", policyVersion: 1 });
    expect(await judge(USDT, "ETHUSDT", "30")).toMatchObject({ verdict: "second-lead", rule: "USDT futures" });
    const refused = await judge(USDT, "ETHUSDT", "51", 200);
    expect(refused).toMatchObject({ verdict: "refuse", rule: "USDT futures", field: "leverage" });
    expect(refused.verdict === "refuse" && refused.message).toMatch(/at most 50× for any symbol on USDT-FUTURES/);
    expect(await judge("COIN-FUTURES", "BTCUSD", "6")).toMatchObject({ verdict: "refuse", rule: "Anything else" });
    expect(await judge("COIN-FUTURES", "BTCUSD", "5", 10_000)).toEqual({ verdict: "allow", policyVersion: 1 });

    // The same rules with the any-symbol rule first: it decides BTCUSDT too, and the BTC rule is never reached.
    const reordered = [RULES[1]!, RULES[0]!, RULES[2]!];
    const v3 = await leveragePolicies.draft(db, admin1, { rules: reordered });
    await leveragePolicies.publish(db, admin2, v3.version);
    expect(await judge(USDT, "BTCUSDT", "25")).toEqual({ verdict: "allow", policyVersion: 3 });
    expect(await judge(USDT, "BTCUSDT", "45")).toMatchObject({ verdict: "second-lead", rule: "USDT futures" });
    // A policy without a catch-all: a change no rule takes is allowed, under that version.
    const v4 = await leveragePolicies.draft(db, admin1, { rules: [RULES[0]!] });
    await leveragePolicies.publish(db, admin2, v4.version);
    expect(await judge(USDT, "ETHUSDT", "125", 9_999)).toEqual({ verdict: "allow", policyVersion: 4 });
    expect(await judge(USDT, "BTCUSDT", "21")).toMatchObject({ verdict: "refuse", policyVersion: 4 });
    expect(await versions(db)).toEqual([
      [4, "published"],
      [3, "superseded"],
      [2, "discarded"],
      [1, "superseded"],
    ]);
  });

  it("[bad-input] each route's input refused on its field, and nothing written", async () => {
    const db = bed.db;
    const before = [JSON.stringify(await leveragePolicies.list(db)), await auditCount(db)];
    const bad: [unknown, RegExp][] = [
      [[{ ...RULES[0], maxLeverage: 126 }], /rule 1 “BTC”: maxLeverage: maxLeverage must be at most 125/],
      [[{ ...RULES[0], maxLeverage: 0 }], /maxLeverage must be at least 1/],
      [[{ ...RULES[0], maxLeverage: 2.5 }], /maxLeverage must be a whole number/],
      [[{ ...RULES[0], secondLeadAt: 21 }], /secondLeadAt: secondLeadAt must be at most maxLeverage/],
      [[{ ...RULES[0], planSecondLeadAt: 0 }], /planSecondLeadAt must be at least 1/],
      [[{ ...RULES[0], productType: "SPOT" }], /productType must be \* \(any\) or one of/],
      [[{ ...RULES[0], symbol: "btc usdt" }], /symbol must be \* \(any\) or a contract/],
      [[{ ...RULES[0], name: " " }], /a rule needs a name/],
      [[RULES[0], RULES[0]], /each rule's name is its own/],
      ["not a list", /rules must be a list/],
    ];
    for (const [rules, message] of bad) {
      const draft = await domainRefusal(leveragePolicies.draft(db, admin1, { rules }));
      expect(draft.code).toBe("invalid_input");
      expect(draft.fieldErrors?.rules?.join(" ")).toMatch(message);
      const dry = await domainRefusal(leverageDryRun(db, { rules }));
      expect(dry.fieldErrors?.rules?.join(" ")).toMatch(message);
    }
    // The entries' own schemas, which the route wrapper parses with before any workflow runs (a 422 naming them).
    const fieldsOf = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
      r.error?.issues.map((i) => i.path.join(".")) ?? [];
    for (const days of [0, 91, 1.5, "30", null])
      expect(fieldsOf(leverageDryRunInput.safeParse({ rules: RULES, days }))).toEqual(["days"]);
    expect(fieldsOf(draftPolicyInput.safeParse({ rules: RULES, note: "x".repeat(501) }))).toEqual(["note"]);
    expect(fieldsOf(draftPolicyInput.safeParse({ rules: RULES, note: 5 }))).toEqual(["note"]);
    for (const v of ["0", "x", "1.5", "-1", "1e3", "9999999999"])
      expect(() => leveragePolicies.versionOf(v)).toThrow(/No leverage policy version/);
    expect((await domainRefusal(leveragePolicies.publish(db, admin2, 777))).code).toBe("not_found");
    expect((await domainRefusal(leveragePolicies.discard(db, admin2, 777))).code).toBe("not_found");
    expect([JSON.stringify(await leveragePolicies.list(db)), await auditCount(db)]).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The dry run against the history: E10 intents (and their outcomes) written to the audit log as the proxy writes
// them; what each rule caught is compared with a reference computed below from the seeded changes alone.

type Seeded = { id: number; productType: string; symbol: string; leverage: string; planId: string | null };

async function seedChange(db: Db, c: Omit<Seeded, "id">, key: string, result: "success" | "failure" | null) {
  const params = { productType: c.productType, symbol: c.symbol, marginCoin: "USDT", leverage: c.leverage };
  const intent = await appendAudit(db, {
    actor: "lead@brokerdesk.test",
    actorRole: "lead",
    action: "leverage.set",
    outcome: "intent",
    target: `platform-key:${key}`,
    params: c.planId ? { ...params, planId: c.planId } : params,
  });
  if (result)
    await appendAudit(db, {
      actor: "lead@brokerdesk.test",
      action: "leverage.set",
      outcome: result,
      intentId: intent.id,
      detail: result === "failure" ? { code: "40020", msg: "bad leverage" } : { data: {} },
    });
  return { id: intent.id, ...c };
}

/** The reference: for each rule, the changes it would have caught, written out rule by rule without the code under test. */
function reference(rules: LeverageRule[], changes: Seeded[]): Map<string, Set<number>> {
  const planSizes = new Map<string, number>();
  for (const c of changes) if (c.planId) planSizes.set(c.planId, (planSizes.get(c.planId) ?? 0) + 1);
  const caught = new Map(rules.map((r) => [r.name, new Set<number>()]));
  for (const c of changes) {
    let rule: LeverageRule | undefined;
    for (const r of rules) {
      const productOk = r.productType === "*" || r.productType === c.productType;
      const symbolOk = r.symbol === "*" || r.symbol === c.symbol.toUpperCase();
      if (productOk && symbolOk) {
        rule = r;
        break;
      }
    }
    if (!rule) continue;
    const lev = parseInt(c.leverage, 10);
    const targets = c.planId ? planSizes.get(c.planId)! : 1;
    const over = lev > rule.maxLeverage;
    const secondForValue = rule.secondLeadAt !== undefined && lev >= rule.secondLeadAt;
    const secondForPlan = rule.planSecondLeadAt !== undefined && targets >= rule.planSecondLeadAt;
    if (over || secondForValue || secondForPlan) caught.get(rule.name)!.add(c.id);
  }
  return caught;
}

function randomWalk(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s % n;
  };
}

const DRY_RULES: LeverageRule[] = [
  { name: "BTC", productType: USDT, symbol: "BTCUSDT", maxLeverage: 20, secondLeadAt: 10, planSecondLeadAt: 4 },
  { name: "USDT futures", productType: USDT, symbol: "*", maxLeverage: 50, secondLeadAt: 30 },
  { name: "Coin futures", productType: "COIN-FUTURES", symbol: "*", maxLeverage: 10 },
];

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[leverage-policy][dry-run] on $engine", (engine) => {
  const bed = databaseTestBed(engine);

  it("each rule's caught changes are those the history shows it would have caught, in the window only", async () => {
    const db = bed.db;
    const next = randomWalk(engine.engine === "pglite" ? 7 : 11);
    // Before the window (the dry run is asked as of 90 days after `mid`): these must not be read.
    const old = await seedChange(
      db,
      { productType: USDT, symbol: "BTCUSDT", leverage: "100", planId: null },
      "main",
      "success",
    );
    await new Promise((r) => setTimeout(r, 20));
    const mid = (await db.query<{ t: Date }>("SELECT clock_timestamp() AS t")).rows[0]!.t;
    await new Promise((r) => setTimeout(r, 20));

    const symbols: [string, string][] = [
      [USDT, "BTCUSDT"],
      [USDT, "ETHUSDT"],
      [USDT, "SOLUSDT"],
      ["COIN-FUTURES", "BTCUSD"],
      ["USDC-FUTURES", "BTCPERP"],
    ];
    const seeded: Seeded[] = [];
    const results = ["success", "failure", null] as const;
    for (let i = 0; i < 60; i++) {
      const [productType, symbol] = symbols[next(symbols.length)]!;
      const leverage = String(1 + next(70));
      seeded.push(
        await seedChange(
          db,
          { productType, symbol, leverage, planId: null },
          `sub${1000 + next(5)}`,
          results[next(3)]!,
        ),
      );
    }
    // On each threshold exactly, and just below and above it.
    const edges: [string, string, string][] = [
      [USDT, "BTCUSDT", "9"],
      [USDT, "BTCUSDT", "10"],
      [USDT, "BTCUSDT", "20"],
      [USDT, "BTCUSDT", "21"],
      [USDT, "ETHUSDT", "29"],
      [USDT, "ETHUSDT", "30"],
      [USDT, "ETHUSDT", "50"],
      [USDT, "ETHUSDT", "51"],
      ["COIN-FUTURES", "ETHUSD", "10"],
      ["COIN-FUTURES", "ETHUSD", "11"],
    ];
    for (const [productType, symbol, leverage] of edges)
      seeded.push(await seedChange(db, { productType, symbol, leverage, planId: null }, "main", "success"));
    // Two plans of BTCUSDT at 5×: one of 4 targets (at the plan threshold) and one of 3 (below it).
    for (const [plan, n] of [
      ["plan-a", 4],
      ["plan-b", 3],
    ] as const)
      for (let i = 0; i < n; i++)
        seeded.push(
          await seedChange(
            db,
            { productType: USDT, symbol: "BTCUSDT", leverage: "5", planId: plan },
            `sub${2000 + i}`,
            "success",
          ),
        );
    // Not changes: another action, and a refusal (no intent).
    await appendAudit(db, { actor: "a@b", action: "policy.draft", outcome: "intent", params: { leverage: "99" } });
    await appendAudit(db, { actor: "a@b", action: "leverage.set", outcome: "refused", params: { leverage: "99" } });

    const asOf = new Date(mid.getTime() + 90 * 86_400_000);
    const run = await leverageDryRun(db, { rules: DRY_RULES }, asOf);
    expect(run.read).toBe(seeded.length);
    expect(run.truncated).toBe(false);
    const want = reference(DRY_RULES, seeded);
    for (const rule of run.rules) {
      const got = new Set(rule.caught.map((c) => Number(c.id)));
      expect(got, rule.name).toEqual(want.get(rule.name));
      expect(rule.caughtCount).toBe(want.get(rule.name)!.size);
      expect(rule.refused + rule.secondLead).toBe(rule.caughtCount);
    }
    expect(run.rules.map((r) => r.caughtCount).reduce((a, b) => a + b, 0)).toBeGreaterThan(10);
    expect([...want.get("BTC")!].some((id) => seeded.find((s) => s.id === id)?.planId === "plan-a")).toBe(true);
    expect([...want.get("BTC")!].some((id) => seeded.find((s) => s.id === id)?.planId === "plan-b")).toBe(false);
    expect(run.unmatched).toBe(seeded.filter((s) => s.productType === "USDC-FUTURES").length);
    expect(run.rules.flatMap((r) => r.caught).some((c) => Number(c.id) === old.id)).toBe(false);
    const planRow = run.rules[0]!.caught.find((c) => c.planId === "plan-a");
    expect(planRow).toMatchObject({ targets: 4, verdict: "second-lead", outcome: "success", leverage: "5" });

    // As of now, with the whole window: the old change is read too, and caught by the BTC rule (100 > 20).
    const now = await leverageDryRun(db, { rules: DRY_RULES });
    expect(now.read).toBe(seeded.length + 1);
    expect(now.rules[0]!.caught.some((c) => Number(c.id) === old.id && c.verdict === "refuse")).toBe(true);
    // A window that ends before everything: nothing read.
    expect((await leverageDryRun(db, { rules: DRY_RULES, days: 1 }, new Date(Date.now() + 3 * 86_400_000))).read).toBe(
      0,
    );
  });
});
