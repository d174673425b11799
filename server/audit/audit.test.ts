import { afterEach, describe, expect, it } from "vitest";
import { OPERATION_IDS } from "@/lib/platform/catalog";
import { openDb, type Db } from "@/server/db";
import { createTestDatabase, testEngines, type TestDatabase } from "@/server/db/testing";
import {
  AUDIT_ACTIONS,
  AUDIT_GENESIS_HASH,
  appendAudit,
  appendAuditInTransaction,
  AuditWriteError,
  listAudit,
  verifyAuditChain,
  type AuditInput,
} from "./index";
import { hashAuditRow } from "./hash";

const ENGINES = testEngines(process.env.TEST_DATABASE_URL);

const entry = (over: Partial<AuditInput> = {}): AuditInput => ({
  actor: "broker@demo.brokerdesk",
  actorRole: "broker",
  action: "withdrawals.request",
  outcome: "intent",
  target: "1234567",
  params: { subUid: "1234567", coin: "USDT", address: "TXyz", amount: "10.5" },
  requestId: "req-1",
  ip: "127.0.0.1",
  ...over,
});

describe("[audit][actions]", () => {
  it("is a closed list holding every platform operation id and Brokerdesk's own actions", () => {
    for (const id of OPERATION_IDS) expect(AUDIT_ACTIONS.options).toContain(id);
    for (const a of [
      "auth.sign-in",
      "auth.sign-in-failed",
      "auth.sign-out",
      "auth.session-refused",
      "request.refused",
      "export.run",
      "withdrawals.approve",
      "users.reset-password",
      "audit.export",
    ]) {
      expect(AUDIT_ACTIONS.options).toContain(a);
    }
    expect(AUDIT_ACTIONS.safeParse("withdrawals.steal").success).toBe(false);
  });
});

describe.each(ENGINES)("[audit] $engine", (engine) => {
  let tdb: TestDatabase | undefined;
  let db: Db;
  const open = async () => {
    tdb = await createTestDatabase(engine);
    db = await tdb.open();
    return db;
  };
  afterEach(async () => {
    await tdb?.dispose();
    tdb = undefined;
  });

  /** What a superuser could do: switch the append-only triggers off, change the table, switch them on. */
  const tamper = (sql: string, params: unknown[] = []) =>
    db.transaction(async (tx) => {
      await tx.query("ALTER TABLE audit_log DISABLE TRIGGER ALL");
      await tx.query(sql, params);
      await tx.query("ALTER TABLE audit_log ENABLE TRIGGER ALL");
    });

  async function appendMany(n: number) {
    const out: { id: number; hash: string }[] = [];
    for (let i = 0; i < n; i++) out.push(await appendAudit(db, entry({ target: `t${i}` })));
    return out;
  }

  describe("[audit][append]", () => {
    it("builds a chain from the genesis value; an outcome row points at its intent", async () => {
      await open();
      const intent = await appendAudit(db, entry());
      const outcome = await appendAudit(
        db,
        entry({ outcome: "success", intentId: intent.id, detail: { orderId: "9001" } }),
      );
      expect([intent.id, outcome.id]).toEqual([1, 2]);
      const rows = await db.query<{
        id: number;
        prev_hash: string;
        hash: string;
        intent_id: number | null;
        params: unknown;
      }>("SELECT id, prev_hash, hash, intent_id, params FROM audit_log ORDER BY id");
      expect(rows.rows[0]).toMatchObject({ prev_hash: AUDIT_GENESIS_HASH, hash: intent.hash, intent_id: null });
      expect(rows.rows[1]).toMatchObject({ prev_hash: intent.hash, hash: outcome.hash, intent_id: 1 });
      expect(rows.rows[0]!.params).toEqual({ subUid: "1234567", coin: "USDT", address: "TXyz", amount: "10.5" });
      expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 2 });
    });

    it("stores params and detail redacted, keeping addresses and amounts", async () => {
      await open();
      await appendAudit(
        db,
        entry({
          params: { address: "0xAbC", amount: "1.00000001", apiSecret: "s3cret", headers: { "ACCESS-SIGN": "sig" } },
          detail: { nested: { password: "pw", chain: "ERC20" } },
        }),
      );
      const row = (await db.query<{ params: unknown; detail: unknown }>("SELECT params, detail FROM audit_log"))
        .rows[0]!;
      expect(row.params).toEqual({
        address: "0xAbC",
        amount: "1.00000001",
        apiSecret: "[redacted]",
        headers: { "ACCESS-SIGN": "[redacted]" },
      });
      expect(row.detail).toEqual({ nested: { password: "[redacted]", chain: "ERC20" } });
      expect(JSON.stringify(row)).not.toMatch(/s3cret|"sig"|"pw"/);
    });

    it("hashes exactly what the database gives back, for awkward JSON too", async () => {
      await open();
      await appendAudit(
        db,
        entry({
          params: {
            z: 1,
            a: { y: [3, 2, 1], b: null },
            big: 12345678901234567890n,
            e: 1e21,
            tiny: 1e-7,
            neg: -0,
            f: 0.1,
            u: "ünïcødé ✓ 😀",
            nul: "a\u0000b",
            lone: "x\ud800y",
            skip: undefined,
            when: new Date(0),
          },
          detail: "just a string",
        }),
      );
      await appendAudit(
        db,
        entry({
          params: [1, "two", { three: 3 }],
          detail: null,
          actorRole: null,
          target: null,
          requestId: null,
          ip: null,
        }),
      );
      await appendAudit(db, entry({ params: undefined, detail: undefined }));
      expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 3 });
    });

    it("[audit][bounded] writes a row whatever the request carried: long or control-character text is cut and cleaned, never refused", async () => {
      await open();
      const long = `/api/withdrawals/${"a".repeat(5_000)}/approve`;
      await appendAudit(
        db,
        entry({
          actor: "anonymous",
          action: "request.refused",
          outcome: "refused",
          target: long,
          detail: { status: 401 },
        }),
      );
      await appendAudit(
        db,
        entry({
          target: "withdrawal:\u0000\u001b[31m\r\nforged line",
          ip: `10.0.0.1${"\u0000".repeat(200)}`,
          requestId: "r\ud800",
        }),
      );
      await appendAudit(db, entry({ actor: `${"x".repeat(400)}@example.com` }));
      const rows = (
        await db.query<{ actor: string; target: string; ip: string; request_id: string }>(
          "SELECT actor, target, ip, request_id FROM audit_log ORDER BY id",
        )
      ).rows;
      expect(rows[0]!.target).toHaveLength(512);
      expect(rows[0]!.target.startsWith("/api/withdrawals/aaaa")).toBe(true);
      expect(rows[0]!.target).toMatch(/…\[cut from 5025 characters\]$/);
      expect(rows[1]!.target).toBe("withdrawal:\ufffd\ufffd[31m\ufffd\ufffdforged line");
      expect(rows[1]!.ip).toHaveLength(128);
      expect(rows[1]!.ip).not.toMatch(/[\u0000-\u001f]/);
      expect(rows[1]!.request_id).toBe("r\ufffd");
      expect(rows[2]!.actor).toHaveLength(320);
      expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 3 });
    });

    it("keeps one valid chain under 50 concurrent appends", async () => {
      await open();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => appendAudit(db, entry({ target: `c${i}` }))),
      );
      expect(results.map((r) => r.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 50 });
    });

    // PostgreSQL only: what it proves (roles, several connections at once) does not exist on PGlite.
    if (engine.engine === "postgres") {
      it("keeps one chain when two app instances append at once", async () => {
        await open();
        const other = await tdb!.open();
        await Promise.all(
          Array.from({ length: 40 }, (_, i) => appendAudit(i % 2 ? db : other, entry({ target: `i${i}` }))),
        );
        expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 40 });
      });
    }

    it("commits with the caller's transaction, or not at all", async () => {
      await open();
      await expect(
        db.transaction(async (tx) => {
          await appendAuditInTransaction(tx, entry());
          await tx.query("INSERT INTO subaccounts (sub_uid, source, created_by) VALUES ('1', 'nope', 'x')");
        }),
      ).rejects.toThrow(/check constraint/i);
      expect((await db.query("SELECT count(*)::int AS n FROM audit_log")).rows).toEqual([{ n: 0 }]);
      await db.transaction(async (tx) => {
        await tx.query("INSERT INTO subaccounts (sub_uid, source, created_by) VALUES ('1', 'added', 'x')");
        await appendAuditInTransaction(tx, entry({ action: "subaccounts.add", outcome: "success" }));
      });
      expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 1 });
    });
  });

  describe("[audit][fail-closed]", () => {
    it("throws AuditWriteError on a closed database", async () => {
      await open();
      await db.close();
      await expect(appendAudit(db, entry())).rejects.toBeInstanceOf(AuditWriteError);
    });

    it("throws AuditWriteError for an unknown action or outcome, or no actor, and writes nothing", async () => {
      await open();
      await expect(appendAudit(db, entry({ action: "withdrawals.steal" as never }))).rejects.toBeInstanceOf(
        AuditWriteError,
      );
      await expect(appendAudit(db, entry({ outcome: "maybe" as never }))).rejects.toThrow(/outcome/);
      await expect(appendAudit(db, entry({ actor: "" }))).rejects.toBeInstanceOf(AuditWriteError);
      expect((await db.query("SELECT count(*)::int AS n FROM audit_log")).rows).toEqual([{ n: 0 }]);
    });

    it("throws AuditWriteError when the database refuses the row, and the chain stays whole", async () => {
      await open();
      await appendAudit(db, entry());
      await expect(appendAudit(db, entry({ outcome: "success", intentId: 99 }))).rejects.toBeInstanceOf(
        AuditWriteError,
      );
      await appendAudit(db, entry({ outcome: "success", intentId: 1 }));
      expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 2 });
    });
  });

  describe("[audit][append-only]", () => {
    it("refuses UPDATE, DELETE and TRUNCATE", async () => {
      await open();
      await appendMany(2);
      await expect(db.query("UPDATE audit_log SET actor = 'someone-else' WHERE id = 1")).rejects.toThrow(/append-only/);
      await expect(db.query("DELETE FROM audit_log WHERE id = 2")).rejects.toThrow(/append-only/);
      await expect(db.query("TRUNCATE audit_log CASCADE")).rejects.toThrow(/append-only/);
      await expect(db.query("DELETE FROM audit_head")).rejects.toThrow(/append-only/);
      await expect(db.query("UPDATE audit_head SET last_id = 1, last_hash = $1", [AUDIT_GENESIS_HASH])).rejects.toThrow(
        /only advance/,
      );
      expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 2 });
    });

    it("refuses an insert that does not extend the head", async () => {
      await open();
      await appendMany(1);
      await expect(
        db.query(
          "INSERT INTO audit_log (id, at, actor, action, outcome, prev_hash, hash) VALUES (2, now(), 'x', 'auth.sign-in', 'info', $1, $2)",
          [AUDIT_GENESIS_HASH, "f".repeat(64)],
        ),
      ).rejects.toThrow(/does not extend the chain head/);
    });
  });

  // PostgreSQL only: what it proves (roles, several connections at once) does not exist on PGlite.
  if (engine.engine === "postgres") {
    it("[audit][append-only] an app role that does not own the table cannot change or unprotect it", async () => {
      await open();
      const t = tdb!;
      const role = `bd_app_${t.schema!.slice(-12)}`;
      // The grants an operator gives the app role (server/audit/README.md).
      await t.admin!(async (c) => {
        await c.query(`CREATE ROLE ${role} LOGIN PASSWORD 'app-test'`);
        await c.query(`GRANT USAGE ON SCHEMA ${t.schema} TO ${role}`);
        await c.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${t.schema} TO ${role}`);
        await c.query(`REVOKE UPDATE, DELETE, TRUNCATE ON ${t.schema}.audit_log FROM ${role}`);
        await c.query(`REVOKE DELETE, TRUNCATE ON ${t.schema}.audit_head FROM ${role}`);
      });
      try {
        const app = await openDb({ url: t.urlFor!(role, "app-test") });
        try {
          await appendAudit(app, entry());
          await expect(app.query("UPDATE audit_log SET actor = 'x'")).rejects.toThrow(/permission denied/);
          await expect(app.query("DELETE FROM audit_log")).rejects.toThrow(/permission denied/);
          await expect(app.query("TRUNCATE audit_log")).rejects.toThrow(/permission denied/);
          await expect(app.query("ALTER TABLE audit_log DISABLE TRIGGER ALL")).rejects.toThrow(/must be owner/);
          expect(await verifyAuditChain(app)).toEqual({ ok: true, rows: 1 });
        } finally {
          await app.close();
        }
      } finally {
        await t.dispose();
        await t.admin!((c) => c.query(`DROP ROLE ${role}`));
      }
    });
  }

  describe("[audit][verify]", () => {
    it("reports OK on an empty log", async () => {
      await open();
      expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 0 });
    });

    it("detects an edited row", async () => {
      await open();
      await appendMany(5);
      await tamper("UPDATE audit_log SET params = $1::text::jsonb WHERE id = 3", [
        JSON.stringify({ address: "attacker", amount: "10.5" }),
      ]);
      expect(await verifyAuditChain(db)).toEqual({
        ok: false,
        rows: 2,
        brokenAt: 3,
        reason: "content does not match its hash (row edited)",
      });
    });

    it("detects an edited row whose hash was recomputed, at the next link", async () => {
      await open();
      await appendMany(4);
      // The attacker edits row 2 and writes a correct hash for the new content: row 2 now verifies on its
      // own, but row 3 still names the old hash as its predecessor.
      const row2 = (await listAudit(db, { cursor: "3", limit: 1 })).rows[0]!;
      const forged = hashAuditRow({ ...row2, actor: "mallory", at: row2.at.toISOString() });
      await tamper("UPDATE audit_log SET actor = 'mallory', hash = $1 WHERE id = 2", [forged]);
      expect(await verifyAuditChain(db)).toEqual({
        ok: false,
        rows: 2,
        brokenAt: 3,
        reason: "prev_hash is not row 2's hash (a row before it was changed or replaced)",
      });
    });

    it("detects a deleted row in the middle", async () => {
      await open();
      await appendMany(5);
      await tamper("DELETE FROM audit_log WHERE id = 3");
      expect(await verifyAuditChain(db)).toEqual({
        ok: false,
        rows: 2,
        brokenAt: 3,
        reason: "row 3 is missing (deleted): the next row is 4",
      });
    });

    it("detects deleted rows at the end (the head remembers)", async () => {
      await open();
      await appendMany(5);
      await tamper("DELETE FROM audit_log WHERE id >= 4");
      expect(await verifyAuditChain(db)).toEqual({
        ok: false,
        rows: 3,
        brokenAt: 4,
        reason: "rows 4..5 are missing (deleted): the chain head records 5 rows",
      });
    });

    it("detects a row deleted and the chain re-linked around it", async () => {
      await open();
      const rows = await appendMany(4);
      await tamper("DELETE FROM audit_log WHERE id = 2");
      await tamper("UPDATE audit_log SET id = 2, prev_hash = $1 WHERE id = 3", [rows[0]!.hash]);
      const result = await verifyAuditChain(db);
      expect(result).toMatchObject({ ok: false, rows: 1, brokenAt: 2 });
    });
  });

  describe("[audit][list]", () => {
    it("filters by actor, action, outcome and time, newest first, with keyset paging", async () => {
      await open();
      await appendAudit(db, entry({ actor: "Lead@Demo.Brokerdesk", action: "withdrawals.approve", outcome: "intent" }));
      await appendAudit(db, entry({ action: "withdrawals.request", outcome: "success" }));
      await appendAudit(
        db,
        entry({ actor: "anonymous", action: "request.refused", outcome: "refused", detail: { status: 401 } }),
      );
      await appendAudit(db, entry({ action: "withdrawals.request", outcome: "failure" }));

      const all = await listAudit(db);
      expect(all.rows.map((r) => r.id)).toEqual([4, 3, 2, 1]);
      expect(all.nextCursor).toBeNull();
      expect(all.rows[1]).toMatchObject({
        actor: "anonymous",
        action: "request.refused",
        outcome: "refused",
        detail: { status: 401 },
        actorRole: "broker",
        ip: "127.0.0.1",
      });
      expect(all.rows[0]!.at).toBeInstanceOf(Date);

      expect((await listAudit(db, { actor: "lead@demo.brokerdesk" })).rows.map((r) => r.id)).toEqual([1]);
      // Part of the e-mail, and % or _ are the text typed, not wildcards.
      expect((await listAudit(db, { actor: "LEAD" })).rows.map((r) => r.id)).toEqual([1]);
      expect((await listAudit(db, { actor: "l%d" })).rows.map((r) => r.id)).toEqual([]);
      expect((await listAudit(db, { action: "withdrawals.request" })).rows.map((r) => r.id)).toEqual([4, 2]);
      expect((await listAudit(db, { outcome: "refused" })).rows.map((r) => r.id)).toEqual([3]);

      const page1 = await listAudit(db, { limit: 3 });
      expect(page1.rows.map((r) => r.id)).toEqual([4, 3, 2]);
      expect(page1.nextCursor).toBe("2");
      const page2 = await listAudit(db, { limit: 3, cursor: page1.nextCursor! });
      expect(page2).toMatchObject({ nextCursor: null });
      expect(page2.rows.map((r) => r.id)).toEqual([1]);

      const at3 = all.rows[1]!.at;
      expect((await listAudit(db, { from: new Date(at3.getTime() + 60_000) })).rows).toEqual([]);
      expect((await listAudit(db, { to: new Date(at3.getTime() - 60_000) })).rows).toEqual([]);
      expect((await listAudit(db, { from: new Date(0), to: new Date(Date.now() + 60_000) })).rows).toHaveLength(4);
    });
  });
});
