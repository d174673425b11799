import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DbClosedError, DbMisuseError, type Db } from "./index";
import { loadMigrations } from "./migrate";
import { createTestDatabase, testEngines, type TestDatabase } from "./testing";
import { TransactionAbortedError } from "./transaction";

const ENGINES = testEngines(process.env.TEST_DATABASE_URL);

const withdrawal = (over: Record<string, unknown> = {}) => {
  const w = {
    client_oid: `bd-${Math.random().toString(36).slice(2, 12)}`,
    sub_uid: "1234567",
    coin: "USDT",
    dest: "on_chain",
    chain: "TRC20",
    address: "TXYZabc123",
    amount: "12.5",
    reason: "client payout",
    requested_by: "broker@demo.brokerdesk",
    ...over,
  };
  return w;
};
async function insertWithdrawal(q: Pick<Db, "query">, over: Record<string, unknown> = {}) {
  const w = withdrawal(over);
  const cols = Object.keys(w);
  await q.query(
    `INSERT INTO withdrawal_requests (${cols.join(", ")}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(", ")})`,
    Object.values(w),
  );
  return w;
}

describe("[db][migrations] files", () => {
  it("rejects badly named migration files", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bd-mig-"));
    try {
      writeFileSync(path.join(dir, "0001_core.sql"), "SELECT 1");
      writeFileSync(path.join(dir, "README.md"), "ignored");
      expect(loadMigrations(dir).map((m) => m.file)).toEqual(["0001_core.sql"]);
      writeFileSync(path.join(dir, "0001_again.sql"), "SELECT 1");
      expect(() => loadMigrations(dir)).toThrow(/share version 1/);
      rmSync(path.join(dir, "0001_again.sql"));
      writeFileSync(path.join(dir, "2_users.sql"), "SELECT 1");
      expect(() => loadMigrations(dir)).toThrow(/NNNN_lower_snake_case/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(ENGINES)("[db] $engine", (engine) => {
  let tdb: TestDatabase | undefined;
  let db: Db;
  const open = async (opts?: { dataDir?: string }) => {
    tdb = await createTestDatabase(engine, opts);
    db = await tdb.open();
    return db;
  };
  afterEach(async () => {
    await tdb?.dispose();
    tdb = undefined;
  });

  describe("[db][migrations]", () => {
    it("applies every migration once and records it; re-opening applies nothing again", async () => {
      const dir = engine.engine === "pglite" ? mkdtempSync(path.join(tmpdir(), "bd-db-")) : undefined;
      try {
        await open({ dataDir: dir });
        const first = await db.query<{ version: number; name: string; applied_at: Date }>(
          "SELECT version, name, applied_at FROM schema_migrations ORDER BY version",
        );
        expect(first.rows.map((r) => r.version)).toEqual(loadMigrations().map((m) => m.version));
        expect(first.rows[0]).toMatchObject({ version: 1, name: "core" });
        await db.query("INSERT INTO subaccounts (sub_uid, source, created_by) VALUES ('42', 'added', 'a@b.c')");
        if (engine.engine === "pglite") await db.close();
        const again = await tdb!.open();
        const second = await again.query<{ version: number; applied_at: Date }>(
          "SELECT version, applied_at FROM schema_migrations ORDER BY version",
        );
        expect(second.rows).toEqual(first.rows.map(({ version, applied_at }) => ({ version, applied_at })));
        // Data survived: the tables were not recreated.
        expect((await again.query("SELECT sub_uid FROM subaccounts")).rows).toEqual([{ sub_uid: "42" }]);
      } finally {
        if (dir) {
          await tdb?.dispose();
          rmSync(dir, { recursive: true, force: true });
        }
      }
      // PGlite starts twice on disk and runs every migration: 30 s ran out once on a loaded 2-core machine.
    }, 90_000);

    // PostgreSQL only: what it proves (roles, several connections at once) does not exist on PGlite.
    if (engine.engine === "postgres") {
      it("several instances opening at once migrate once (advisory lock)", async () => {
        tdb = await createTestDatabase(engine);
        const dbs = await Promise.all([tdb.open(), tdb.open(), tdb.open(), tdb.open()]);
        const rows = await dbs[0]!.query<{ n: number }>("SELECT count(*)::int AS n FROM schema_migrations");
        expect(rows.rows[0]!.n).toBe(loadMigrations().length);
      });
    }
  });

  describe("[db][types]", () => {
    it("returns the same JS types on both engines", async () => {
      await open();
      const r = await db.query(
        "SELECT 7::bigint AS big, 3::int AS int, '1.50'::numeric AS num, ARRAY['a','b']::text[] AS arr, '{\"b\":1,\"a\":[true]}'::jsonb AS j, $1::timestamptz AS t, $2::text::jsonb AS p",
        ["2026-01-02T03:04:05.678Z", JSON.stringify({ k: "v" })],
      );
      expect(r.rows[0]).toEqual({
        big: 7,
        int: 3,
        num: "1.50",
        arr: ["a", "b"],
        j: { a: [true], b: 1 },
        t: new Date("2026-01-02T03:04:05.678Z"),
        p: { k: "v" },
      });
    });
  });

  describe("[db][transaction]", () => {
    it("commits, and rolls back when the callback throws", async () => {
      await open();
      await db.transaction((tx) =>
        tx.query("INSERT INTO subaccounts (sub_uid, source, created_by) VALUES ('1', 'added', 'x')"),
      );
      await expect(
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO subaccounts (sub_uid, source, created_by) VALUES ('2', 'added', 'x')");
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect((await db.query("SELECT sub_uid FROM subaccounts ORDER BY sub_uid")).rows).toEqual([{ sub_uid: "1" }]);
    });

    it("a statement issued while another transaction is open is not swallowed by its rollback", async () => {
      await open();
      let entered!: () => void;
      const inside = new Promise<void>((r) => (entered = r));
      const failing = db.transaction(async (tx) => {
        await tx.query("INSERT INTO subaccounts (sub_uid, source, created_by) VALUES ('10', 'added', 'x')");
        entered();
        await new Promise((r) => setTimeout(r, 50));
        throw new Error("rolled back");
      });
      await inside;
      const outside = db.query("INSERT INTO subaccounts (sub_uid, source, created_by) VALUES ('11', 'added', 'x')");
      await expect(failing).rejects.toThrow("rolled back");
      await outside;
      expect((await db.query("SELECT sub_uid FROM subaccounts ORDER BY sub_uid")).rows).toEqual([{ sub_uid: "11" }]);
    });

    it("20 concurrent read-modify-write transactions lose no update", async () => {
      await open();
      await db.query("INSERT INTO export_jobs (operation, requested_by) VALUES ('fills.list', 'x')");
      await Promise.all(
        Array.from({ length: 20 }, () =>
          db.transaction(async (tx) => {
            const r = await tx.query<{ id: string; records: number }>("SELECT id, records FROM export_jobs FOR UPDATE");
            await new Promise((res) => setTimeout(res, 1));
            await tx.query("UPDATE export_jobs SET records = $1 WHERE id = $2", [
              r.rows[0]!.records + 1,
              r.rows[0]!.id,
            ]);
          }),
        ),
      );
      expect((await db.query("SELECT records FROM export_jobs")).rows).toEqual([{ records: 20 }]);
    });

    it("refuses a swallowed statement failure instead of committing silently", async () => {
      await open();
      await expect(
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO subaccounts (sub_uid, source, created_by) VALUES ('5', 'added', 'x')");
          await tx
            .query("INSERT INTO subaccounts (sub_uid, source, created_by) VALUES ('5', 'added', 'x')")
            .catch(() => undefined);
        }),
      ).rejects.toBeInstanceOf(TransactionAbortedError);
      expect((await db.query("SELECT count(*)::int AS n FROM subaccounts")).rows).toEqual([{ n: 0 }]);
    });

    it("refuses the outer Db inside its own transaction (would deadlock on PGlite)", async () => {
      await open();
      await expect(db.transaction(() => db.query("SELECT 1"))).rejects.toBeInstanceOf(DbMisuseError);
      await expect(db.transaction(() => db.transaction(async () => 1))).rejects.toBeInstanceOf(DbMisuseError);
      expect((await db.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    });

    it("refuses use after close", async () => {
      await open();
      await db.close();
      await expect(db.query("SELECT 1")).rejects.toBeInstanceOf(DbClosedError);
      await expect(db.transaction(async () => 1)).rejects.toBeInstanceOf(DbClosedError);
    });
  });

  describe("[db][withdrawals]", () => {
    it("client_oid is unique", async () => {
      await open();
      await insertWithdrawal(db, { client_oid: "bd-same" });
      await expect(insertWithdrawal(db, { client_oid: "bd-same" })).rejects.toThrow(/unique|duplicate/i);
    });

    it("the approver or rejecter is never the requester", async () => {
      await open();
      const w = await insertWithdrawal(db);
      const approve = (by: string) =>
        db.query(
          "UPDATE withdrawal_requests SET state = 'approved', approved_by = $1, approved_at = now(), version = version + 1 WHERE client_oid = $2",
          [by, w.client_oid],
        );
      await expect(approve(w.requested_by)).rejects.toThrow(/withdrawal_approver_not_requester/);
      await expect(
        db.query(
          "UPDATE withdrawal_requests SET state = 'rejected', rejected_by = $1, rejected_at = now(), reject_reason = 'no' WHERE client_oid = $2",
          [w.requested_by, w.client_oid],
        ),
      ).rejects.toThrow(/withdrawal_rejecter_not_requester/);
      await approve("lead@demo.brokerdesk");
      const row = await db.query("SELECT state, approved_by, version FROM withdrawal_requests WHERE client_oid = $1", [
        w.client_oid,
      ]);
      expect(row.rows).toEqual([{ state: "approved", approved_by: "lead@demo.brokerdesk", version: 1 }]);
    });

    it("a state past requested needs an approver; a rejection needs who and why", async () => {
      await open();
      const w = await insertWithdrawal(db);
      await expect(
        db.query("UPDATE withdrawal_requests SET state = 'submitted' WHERE client_oid = $1", [w.client_oid]),
      ).rejects.toThrow(/withdrawal_approved_has_approver/);
      await expect(
        db.query("UPDATE withdrawal_requests SET state = 'rejected' WHERE client_oid = $1", [w.client_oid]),
      ).rejects.toThrow(/withdrawal_rejected_has_rejecter/);
    });

    it("refuses an amount that is not a positive decimal string", async () => {
      await open();
      for (const amount of ["0", "0.000", "-1", "1e5", "1.", ".5", "01", "1,5", " 1", "NaN", ""]) {
        await expect(insertWithdrawal(db, { amount }), amount).rejects.toThrow(/check constraint/i);
      }
    });

    it("keeps a valid amount exactly as written, and refuses unknown states and destinations", async () => {
      await open();
      const w = await insertWithdrawal(db, { amount: "0.000000000000000001" });
      await insertWithdrawal(db, { amount: "123456789012345678901234567890.5" });
      expect(
        (await db.query("SELECT amount FROM withdrawal_requests WHERE client_oid = $1", [w.client_oid])).rows,
      ).toEqual([{ amount: "0.000000000000000001" }]);
      await expect(insertWithdrawal(db, { dest: "wire" })).rejects.toThrow(/check constraint/i);
      await expect(insertWithdrawal(db, { state: "paid" })).rejects.toThrow(/check constraint/i);
    });
  });

  describe("[db][risk-units]", () => {
    it("a UID is bound to at most one risk unit at a time", async () => {
      await open();
      const bind = (unit: string) =>
        db.query(
          "INSERT INTO risk_unit_bindings (risk_unit_id, uid, bound_by) VALUES ($1, '777', 'broker@demo.brokerdesk')",
          [unit],
        );
      await bind("100");
      await expect(bind("200")).rejects.toThrow(/risk_unit_bindings_one_bound_per_uid/);
      await db.query(
        "UPDATE risk_unit_bindings SET state = 'unbound', unbound_by = 'lead@demo.brokerdesk', unbound_at = now() WHERE uid = '777'",
      );
      await bind("200");
      const rows = await db.query("SELECT risk_unit_id, state FROM risk_unit_bindings ORDER BY bound_at, risk_unit_id");
      expect(rows.rows).toEqual([
        { risk_unit_id: "100", state: "unbound" },
        { risk_unit_id: "200", state: "bound" },
      ]);
    });
  });

  describe("[db][subaccounts]", () => {
    it("stores the permission list as text[] and refuses an unknown source", async () => {
      await open();
      await db.query(
        "INSERT INTO subaccounts (sub_uid, subaccount_name, perm_list, source, platform_ctime, created_by) VALUES ('9', 'desk-9', $1, 'created', '1700000000000', 'broker@demo.brokerdesk')",
        [["spot_trade", "withdraw"]],
      );
      expect((await db.query("SELECT perm_list, platform_ctime FROM subaccounts")).rows).toEqual([
        { perm_list: ["spot_trade", "withdraw"], platform_ctime: "1700000000000" },
      ]);
      await expect(
        db.query("INSERT INTO subaccounts (sub_uid, source, created_by) VALUES ('10', 'imported', 'x')"),
      ).rejects.toThrow(/check constraint/i);
      await expect(
        db.query(
          "INSERT INTO subaccounts (sub_uid, subaccount_name, source, created_by) VALUES ('11', 'desk-9', 'added', 'x')",
        ),
      ).rejects.toThrow(/unique|duplicate/i);
    });
  });
});
