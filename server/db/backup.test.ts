// A backup taken while the ledger's sync runs (mid-backfill), restored into a fresh database: the audit chain
// verifies; the withdrawals are those of the backup and the ledger holds what it held then (between what it
// held before and after the backup began); the sync, started on the restored database, fills the rest from
// where the backup stood, until the ledger holds exactly the simulator's records by ID. A restore onto a
// database that holds anything is refused unless forced, and so is a backup whose audit chain was edited
// (nothing replaced) unless its broken chain is accepted. PGlite on a data folder always; PostgreSQL with
// TEST_DATABASE_URL (pg_dump while the sync writes, pg_restore into a fresh schema of the same name).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withdrawalFormSchema } from "@/lib/api/withdrawals";
import { appendAudit, verifyAuditChain } from "@/server/audit";
import { startLedger, type Ledger } from "@/server/ledger/engine";
import { ledgerTestBed } from "@/server/ledger/testing";
import { registerFromSimulator, staffSession, TEST_TRAVEL_RULE } from "@/server/testing";
import { approveWithdrawal, requestWithdrawal } from "@/server/workflows/withdrawal-requests";
import {
  backupPglite,
  backupPostgres,
  describeDatabase,
  restorePglite,
  restorePostgres,
  RestoreRefused,
  type DatabaseSummary,
} from "./backup";
import { openDb, type Db } from "./index";
import { createTestDatabase, testEngines, type TestDatabase } from "./testing";

const bed = ledgerTestBed();
const SUBS = 6;
// pg-boss's schemas of this run (on PostgreSQL they sit beside the test's own schema, and are dropped after).
const boss = `pgboss_backup_${Math.random().toString(36).slice(2, 8)}`;

async function until(what: string, ms: number, test: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Withdrawals by id with what the backup must keep of them. */
async function withdrawalsOf(db: Db) {
  const { rows } = await db.query<{ id: string; client_oid: string; state: string; amount: string }>(
    "SELECT id, client_oid, state, amount FROM withdrawal_requests ORDER BY id",
  );
  return rows;
}

const between = (n: number, low: number, high: number) => n >= low && n <= high;

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[db][backup] backup and restore on $engine", (engine) => {
  const work = mkdtempSync(path.join(tmpdir(), "bd-backup-"));
  let tdb: TestDatabase;
  let db: Db;
  let url: string | undefined;
  beforeAll(async () => {
    tdb = await createTestDatabase(engine, engine.engine === "pglite" ? { dataDir: path.join(work, "live") } : {});
    db = await tdb.open();
    url = tdb.urlFor?.("brokerdesk_ci", "brokerdesk_ci");
  }, 60_000);
  afterAll(async () => {
    await tdb?.dispose();
    if (tdb?.admin)
      await tdb.admin((c) =>
        c.query(
          `DROP SCHEMA IF EXISTS ${tdb.schema}_live CASCADE; DROP SCHEMA IF EXISTS ${boss}_live CASCADE; DROP SCHEMA IF EXISTS ${boss}_restored CASCADE`,
        ),
      );
    rmSync(work, { recursive: true, force: true });
  });

  it("[db][backup] a backup taken mid-sync restores into a fresh database: chain intact, withdrawals and ledger as at the backup, and the sync fills the rest", async () => {
    const { sim, client } = bed;
    const subs = sim.state.subaccountsOf(sim.keys.brokerMain.uid).slice(0, SUBS);
    await registerFromSimulator(db, subs);

    // Withdrawals, one of them carried out, and their audit rows.
    const broker = staffSession("broker", "broker");
    const lead = staffSession("lead", "lead1");
    for (const s of [broker, lead]) {
      const { rows } = await db.query<{ id: string }>(
        "INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3) RETURNING id",
        [s.email, s.name, s.role],
      );
      s.userId = rows[0]!.id;
    }
    sim.state.setBalance(subs[0]!.uid, "USDT", "1000");
    const form = (amount: string) =>
      withdrawalFormSchema.parse({
        subUid: subs[0]!.uid,
        coin: "USDT",
        dest: "on_chain",
        address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
        amount,
        reason: "client payout",
        travelRule: TEST_TRAVEL_RULE,
      });
    const paid = await requestWithdrawal(db, client, broker, form("10"));
    await approveWithdrawal(db, client, lead, paid.id, { confirmAmount: "10", confirmAddress: paid.address });
    await requestWithdrawal(db, client, broker, form("20"));
    const withdrawals = await withdrawalsOf(db);
    expect(withdrawals.map((w) => w.state).sort()).toEqual(["confirmed", "requested"]);

    // The sync under way, slowed so that the backup lands inside the backfill.
    sim.faults.set({ path: "deposits.list", kind: "latency", latencyMs: 40 });
    const options = { client, share: 1, sweepSeconds: 1, activeSeconds: 1 };
    let ledger: Ledger | null = await startLedger({ ...options, db, schema: `${boss}_live` });
    let before: DatabaseSummary;
    let after: DatabaseSummary;
    const file = path.join(work, engine.engine === "pglite" ? "backup.tar.gz" : "backup.pgdump");
    try {
      await until("records arriving", 60_000, async () => (await describeDatabase(db)).ledgerDeposits >= 100);
      before = await describeDatabase(db);
      if (engine.engine === "pglite") await backupPglite(db, file);
      else await backupPostgres(url!, file);
      after = await describeDatabase(db);
    } finally {
      await ledger.stop();
      ledger = null;
      sim.faults.clear();
    }
    expect(after.subaccountsBackfilled).toBeLessThan(SUBS);

    // A fresh database: an empty folder, or the same schema name after the live one is moved away.
    let restoreInto: { url: string } | { dataDir: string };
    if (engine.engine === "pglite") {
      restoreInto = { dataDir: path.join(work, "restored") };
      await restorePglite(file, restoreInto.dataDir, false);
    } else {
      await db.close();
      await tdb.admin!((c) => c.query(`ALTER SCHEMA ${tdb.schema} RENAME TO ${tdb.schema}_live`));
      restoreInto = { url: url! };
      await restorePostgres(url!, file, false);
    }
    const restored = await openDb(restoreInto);
    try {
      expect(await verifyAuditChain(restored)).toMatchObject({ ok: true });
      const at = await describeDatabase(restored);
      expect(at.withdrawals).toEqual(before.withdrawals);
      expect(await withdrawalsOf(restored)).toEqual(withdrawals);
      expect(between(at.auditRows, before.auditRows, after.auditRows)).toBe(true);
      expect(between(at.ledgerDeposits, before.ledgerDeposits, after.ledgerDeposits)).toBe(true);
      expect(at.subaccountsBackfilled).toBeLessThan(SUBS);
      // Restoring again onto what is now there is refused, and changes nothing.
      await expect(
        "url" in restoreInto ? restorePostgres(url!, file, false) : restorePglite(file, restoreInto.dataDir, false),
      ).rejects.toBeInstanceOf(RestoreRefused);

      // The sync resumes on the restored database and fills the rest.
      ledger = await startLedger({ ...options, db: restored, schema: `${boss}_restored` });
      await until(
        "every sub-account backfilled on the restored database",
        90_000,
        async () => (await describeDatabase(restored)).subaccountsBackfilled === SUBS,
      );
      await ledger.stop();
      ledger = null;
      const held = await restored.query<{ order_id: string; sub_uid: string }>(
        "SELECT order_id, sub_uid FROM ledger_deposits",
      );
      const expected = new Map(
        subs.flatMap((s) => sim.state.depositsOf(s.uid).map((d) => [d.orderId, s.uid] as const)),
      );
      expect(held.rows).toHaveLength(expected.size);
      expect(new Map(held.rows.map((r) => [r.order_id, r.sub_uid]))).toEqual(expected);
      expect(await verifyAuditChain(restored)).toMatchObject({ ok: true });
    } finally {
      await ledger?.stop();
      await restored.close();
    }
  }, 240_000);
});

// A backup whose audit chain was edited (one row's content changed by someone who switched the triggers off)
// is refused before anything is replaced: the database restored onto keeps every row it had, including those
// written after the backup. With --accept-broken-chain (acceptBrokenChain) the same backup is restored.
describe.each(testEngines(process.env.TEST_DATABASE_URL))("[db][backup] an edited backup on $engine", (engine) => {
  const work = mkdtempSync(path.join(tmpdir(), "bd-edited-"));
  const dataDir = path.join(work, "live");
  let tdb: TestDatabase;
  afterAll(async () => {
    await tdb?.dispose();
    rmSync(work, { recursive: true, force: true });
  });

  it("[db][backup] restoring a backup with an edited audit row changes nothing, unless the broken chain is accepted", async () => {
    tdb = await createTestDatabase(engine, engine.engine === "pglite" ? { dataDir } : {});
    const url = tdb.urlFor?.("brokerdesk_ci", "brokerdesk_ci");
    const target = url ? { url } : { dataDir };
    let db: Db = await openDb(target);
    for (let i = 0; i < 6; i++)
      await appendAudit(db, { actor: "lead@test", action: "users.create", outcome: "intent", target: `user:${i}` });
    await db.transaction(async (tx) => {
      await tx.query("ALTER TABLE audit_log DISABLE TRIGGER ALL");
      await tx.query("UPDATE audit_log SET target = 'user:someone-else' WHERE id = 3");
      await tx.query("ALTER TABLE audit_log ENABLE TRIGGER ALL");
    });
    const file = path.join(work, engine.engine === "pglite" ? "edited.tar.gz" : "edited.pgdump");
    if (url) await backupPostgres(url, file);
    else await backupPglite(db, file);
    // After the backup, the live database goes on: two more rows the backup does not hold.
    await appendAudit(db, { actor: "lead@test", action: "users.create", outcome: "intent", target: "user:after" });
    await appendAudit(db, { actor: "lead@test", action: "users.create", outcome: "intent", target: "user:after2" });
    const live = await describeDatabase(db);
    expect(live.auditRows).toBe(8);
    await db.close();

    const restore = (acceptBrokenChain: boolean) =>
      url
        ? restorePostgres(url, file, true, { acceptBrokenChain })
        : restorePglite(file, dataDir, true, { acceptBrokenChain });
    const refused = await restore(false).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(RestoreRefused);
    expect(String((refused as Error).message)).toMatch(
      /audit chain is broken at row 3: content does not match its hash \(row edited\).*Nothing was changed.*--accept-broken-chain/,
    );
    // Nothing moved: the live database is as it was, and no folder was left beside it.
    db = await openDb(target);
    try {
      expect(await describeDatabase(db)).toEqual(live);
      const targets = await db.query<{ target: string }>("SELECT target FROM audit_log ORDER BY id");
      expect(targets.rows.map((r) => r.target)).toContain("user:after2");
    } finally {
      await db.close();
    }
    if (!url) expect(readdirSync(work).filter((f) => f.startsWith("live."))).toEqual([]);

    // Accepted: the backup replaces it (its 6 rows, the edited one among them), and says its chain is broken.
    const accepted = await restore(true);
    expect(accepted.chain).toMatchObject({ ok: false, brokenAt: 3 });
    db = await openDb(target);
    try {
      expect((await describeDatabase(db)).auditRows).toBe(6);
      expect(await verifyAuditChain(db)).toMatchObject({ ok: false, brokenAt: 3 });
    } finally {
      await db.close();
    }
  }, 120_000);
});
