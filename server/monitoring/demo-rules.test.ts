import "server-only";
// The demo's rules as start-up seeds them: each preset drafted by the demo compliance user and activated by the demo
// admin, each step an intent and an outcome in a chain that verifies; nothing twice across restarts or two instances
// starting at once; an admin's later retirement kept; a start that died half-way finished by the next; and the
// holding presets hold a seeded pattern's withdrawals.
import { describe, expect, it } from "vitest";
import { PRESET_RULES } from "@/lib/api/monitoring/presets";
import { verifyAuditChain } from "@/server/audit";
import { DEMO_USERS } from "@/server/auth/demo-users";
import { seedDemoUsers } from "@/server/auth/users";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { addStaff, staffSession } from "@/server/testing";
import type { Db } from "@/server/db";
import { DEMO_HOLDING_KINDS, DEMO_RULES, seedDemoRules } from "./demo-rules";
import { holdsOn } from "./hold";
import { evaluateHistory } from "./jobs";
import { draftRule, proposeRetirement, retireRuleVersion } from "./rule";
import { clearMonitoring, ownRuleVersions, writeLedger } from "./testing";

const COMPLIANCE = DEMO_USERS.find((u) => u.role === "compliance")!.email;
const ADMIN = DEMO_USERS.find((u) => u.role === "admin")!.email;
const NAMES = PRESET_RULES.map((p) => p.name).sort();

type AuditRow = {
  id: string;
  actor: string;
  action: string;
  outcome: string;
  target: string;
  intent_id: string | null;
};
const auditOf = async (db: Db) =>
  (
    await db.query<AuditRow>(
      `SELECT id::text, actor, action, outcome, target, intent_id::text FROM audit_log
        WHERE action IN ('monitoring.rule-draft', 'monitoring.rule-activate') ORDER BY audit_log.id`,
    )
  ).rows;

async function freshStart(db: Db): Promise<void> {
  await clearMonitoring(db);
  await db.query(`DELETE FROM staff_users WHERE email LIKE '%@demo.brokerdesk'`);
  await seedDemoUsers(db, "simulator");
}

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[monitoring][demo] on $engine", (engine) => {
  const bed = databaseTestBed(engine);

  it("[monitoring][demo] every preset is drafted by demo compliance and activated by the demo admin, audited; a restart adds nothing", async () => {
    await freshStart(bed.db);
    const before = (await auditOf(bed.db)).length;
    expect(await seedDemoRules(bed.db)).toEqual({
      drafted: DEMO_RULES.length,
      activated: DEMO_RULES.length,
      skipped: null,
    });

    const items = await ownRuleVersions(bed.db);
    expect(items.map((v) => v.name).sort()).toEqual(NAMES);
    for (const v of items) {
      const preset = PRESET_RULES.find((p) => p.name === v.name)!;
      expect(v).toMatchObject({ version: 1, state: "active", author: COMPLIANCE, activatedBy: ADMIN });
      expect(v).toMatchObject({ kind: preset.spec.kind, params: preset.spec.params, severity: preset.severity });
      expect(v.holds).toBe(DEMO_HOLDING_KINDS.has(preset.spec.kind as never));
    }
    expect(
      items
        .filter((v) => v.holds)
        .map((v) => v.name)
        .sort(),
    ).toEqual(["Large first deposit", "Pass-through", "Structuring under 10,000 USDT"]);

    // Each step as its route records it: an intent by the person, then its outcome pointing at it.
    const rows = (await auditOf(bed.db)).slice(before);
    expect(rows).toHaveLength(4 * DEMO_RULES.length);
    for (const v of items) {
      for (const [action, actor, target] of [
        ["monitoring.rule-draft", COMPLIANCE, `rule:${v.name}`],
        ["monitoring.rule-activate", ADMIN, `rule-version:${v.id}`],
      ] as const) {
        const mine = rows.filter((r) => r.action === action && r.target === target);
        expect(mine.map((r) => [r.actor, r.outcome])).toEqual([
          [actor, "intent"],
          [actor, "success"],
        ]);
        expect(mine[1]!.intent_id).toBe(mine[0]!.id);
      }
    }
    expect((await verifyAuditChain(bed.db)).ok).toBe(true);

    // A restart: nothing drafted, activated or audited again.
    expect(await seedDemoRules(bed.db)).toEqual({ drafted: 0, activated: 0, skipped: null });
    expect(await ownRuleVersions(bed.db)).toHaveLength(DEMO_RULES.length);
    expect((await auditOf(bed.db)).slice(before)).toHaveLength(4 * DEMO_RULES.length);
  });

  // Several instances share a PostgreSQL database (the embedded one has one process).
  it.runIf(engine.engine === "postgres")(
    "[monitoring][demo] two instances starting at once on one database make each rule once",
    async () => {
      await freshStart(bed.db);
      const other = await bed.open();
      const [a, b] = await Promise.all([seedDemoRules(bed.db), seedDemoRules(other)]);
      expect(a.drafted + b.drafted).toBe(DEMO_RULES.length);
      expect(a.activated + b.activated).toBe(DEMO_RULES.length);
      const items = await ownRuleVersions(bed.db);
      expect(items).toHaveLength(DEMO_RULES.length);
      expect(items.every((v) => v.state === "active" && v.version === 1)).toBe(true);
      expect((await auditOf(bed.db)).filter((r) => r.outcome === "failure")).toEqual([]);
    },
  );

  it("[monitoring][demo] an admin's retirement stays retired at the next start; a demo account disabled seeds nothing", async () => {
    await freshStart(bed.db);
    await seedDemoRules(bed.db);
    const pass = (await ownRuleVersions(bed.db)).find((v) => v.name === "Pass-through")!;
    // Retired as every retirement is: proposed by one person, confirmed by another.
    const [one, other] = [staffSession("compliance", "one"), staffSession("compliance", "other")];
    await addStaff(bed.db, [one, other]);
    await proposeRetirement(bed.db, one, pass.id, { reason: "not for this desk" });
    await retireRuleVersion(bed.db, other, pass.id);
    expect(await seedDemoRules(bed.db)).toEqual({ drafted: 0, activated: 0, skipped: null });
    const after = (await ownRuleVersions(bed.db)).filter((v) => v.name === "Pass-through");
    expect(after.map((v) => v.state)).toEqual(["retired"]);

    await freshStart(bed.db);
    await bed.db.query(`UPDATE staff_users SET disabled = true WHERE email = $1`, [ADMIN]);
    expect((await seedDemoRules(bed.db)).skipped).toMatch(/disabled/);
    expect(await ownRuleVersions(bed.db)).toEqual([]);
  });

  it("[monitoring][demo] a claim or a draft left by a start that died is finished once a minute old, not sooner", async () => {
    await freshStart(bed.db);
    const [first, second] = DEMO_RULES;
    const compliance = { userId: "c", email: COMPLIANCE, name: null, role: "compliance" as const };
    // A claim without its draft, and a draft without its activation, both just made: another start's, in flight.
    await bed.db.query(`INSERT INTO monitoring_rules (name, created_by) VALUES ($1, $2)`, [first!.name, COMPLIANCE]);
    const draft = await draftRule(bed.db, compliance, second!);
    await expect(seedDemoRules(bed.db)).rejects.toThrow(/await their activation: Large first deposit$/);
    let items = await ownRuleVersions(bed.db);
    expect(items.find((v) => v.name === first!.name)).toBeUndefined();
    expect(items.find((v) => v.id === draft.id)?.state).toBe("draft");

    // A minute later they are abandoned: this start drafts the first and activates the left draft.
    await bed.db.query(`UPDATE monitoring_rules SET created_at = now() - interval '2 minutes' WHERE name = $1`, [
      first!.name,
    ]);
    await bed.db.query(`UPDATE monitoring_rule_versions SET created_at = now() - interval '2 minutes' WHERE id = $1`, [
      draft.id,
    ]);
    expect(await seedDemoRules(bed.db)).toEqual({ drafted: 1, activated: 2, skipped: null });
    items = await ownRuleVersions(bed.db);
    expect(items).toHaveLength(DEMO_RULES.length);
    expect(items.every((v) => v.state === "active" && v.version === 1 && v.activatedBy === ADMIN)).toBe(true);
  });

  it("[monitoring][demo] the holding presets hold a structuring desk's withdrawals; a dormant desk's alert holds nothing", async () => {
    await freshStart(bed.db);
    await seedDemoRules(bed.db);
    const now = Date.now();
    const H = 3_600_000;
    const D = 24 * H;
    const usdt = (orderId: string, subUid: string, amount: string, ago: number) => ({
      orderId,
      subUid,
      coin: "USDT",
      amount,
      status: "success",
      fromAddress: `0xsrc${orderId}`,
      ctime: now - ago,
    });
    await writeLedger(bed.db, {
      deposits: [
        ...["9870.00", "9640.00", "9910.50", "9560.00", "9790.00"].map((a, k) =>
          usdt(`s${k}`, "desk11", a, (10 - k) * H),
        ),
        usdt("d0", "desk14", "5000.00", 195 * D),
        usdt("d1", "desk14", "150000.00", 2 * D),
      ],
      withdrawals: [],
      prices: [],
    });
    for (const v of await ownRuleVersions(bed.db)) await evaluateHistory(bed.db, v.id);
    const held = await holdsOn(bed.db, "desk11");
    expect(held.map((h) => h.ruleName)).toEqual(["Structuring under 10,000 USDT"]);
    expect(held[0]!.caseId).not.toBeNull();
    expect(await holdsOn(bed.db, "desk14")).toEqual([]);
    const dormant = await bed.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM monitoring_alerts a JOIN monitoring_rules r ON r.id = a.rule_id
        WHERE a.sub_uid = 'desk14' AND r.name = 'Dormant, then active' AND a.case_id IS NOT NULL`,
    );
    expect(dormant.rows[0]!.n).toBe("1");
  });
});
