// The ledger's CSV export on PGlite and (with TEST_DATABASE_URL) PostgreSQL: read in keyset batches, it
// holds exactly the rows the page's API gives for the same filters, in the same order, across batch
// boundaries; it is audited with an intent before and an outcome (rows written) after.
import { beforeAll, describe, expect, it } from "vitest";
import { ledgerDepositCsvCells, ledgerDepositFiltersSchema, LEDGER_DEPOSIT_CSV_COLUMNS } from "@/lib/api/ledger";
import type { DepositRecord } from "@/lib/platform/catalog/deposits";
import type { StaffSession } from "@/server/auth/session";
import type { Db } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { csvBody, csvResponse } from "@/server/http/csv";
import { sealOf } from "@/server/audit";
import { depositsForExport } from "./export";
import { storeDeposits } from "./sync";
import { searchDeposits } from "./queries";

const compliance: StaffSession = {
  userId: "c1",
  email: "compliance@brokerdesk.test",
  name: "compliance",
  role: "compliance",
};
const T0 = Date.UTC(2026, 0, 1);

/** n records over three sub-accounts, two coins, one every ten minutes; some share a ctime (the key's tie-break). */
function records(n: number): { uid: string; r: DepositRecord }[] {
  return Array.from({ length: n }, (_, i) => {
    const uid = String(9_000_000_001 + (i % 3));
    const t = T0 + Math.floor(i / 2) * 600_000;
    return {
      uid,
      r: {
        orderId: String(1_100_000_000_000_000 + i),
        txId: `0xtx${i}`,
        coin: i % 4 === 0 ? "BTC" : "USDT",
        type: "deposit",
        dest: "on_chain",
        amount: i % 4 === 0 ? `0.${String(i).padStart(8, "0")}` : `${(i * 37) % 20_000}.5`,
        status: i % 5 === 0 ? "pending" : "success",
        fromAddress: `from${i}`,
        toAddress: `to${i}`,
        fee: "0",
        chain: "TRC20",
        confirm: "12",
        tag: "",
        userId: uid,
        cTime: String(t),
        uTime: String(t),
      },
    };
  });
}

describe.each(testEngines(process.env.TEST_DATABASE_URL))(
  "[ledger][export] the streamed CSV export on $engine",
  (engine) => {
    const t = databaseTestBed(engine, {
      async prepare(db) {
        const all = records(12_000);
        for (const uid of new Set(all.map((a) => a.uid))) {
          const mine = all.filter((a) => a.uid === uid).map((a) => a.r);
          for (let i = 0; i < mine.length; i += 1_000) await storeDeposits(db, uid, mine.slice(i, i + 1_000));
        }
      },
      timeoutMs: 120_000,
    });
    let db: Db;
    beforeAll(() => void ({ db } = t));

    async function pagesOf(raw: Record<string, string>) {
      const out: string[][] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await searchDeposits(
          db,
          ledgerDepositFiltersSchema.parse({ ...raw, limit: "500", ...(cursor ? { cursor } : {}) }),
        );
        out.push(...page.rows.map((r) => ledgerDepositCsvCells(r).map((v) => String(v ?? ""))));
        if (!page.nextCursor) return out;
        cursor = page.nextCursor;
      }
    }

    it("[ledger][export] the file holds the API's rows for the same filters, row for row, over several batches; audited intent then outcome", async () => {
      const raw = { coin: "USDT", minAmount: "100", from: String(T0 + 86_400_000), limit: "7" };
      const expected = await pagesOf(raw);
      expect(expected.length).toBeGreaterThan(5_000);
      const f = ledgerDepositFiltersSchema.parse(raw);
      const res = await csvResponse(
        csvBody(
          "deposits-ledger",
          LEDGER_DEPOSIT_CSV_COLUMNS,
          await depositsForExport(db, f, compliance, { requestId: "rq-export", ip: null }, { batch: 1_000 }),
        ),
      );
      const bytes = new Uint8Array(await res.arrayBuffer());
      const lines = new TextDecoder().decode(bytes).split("\r\n").filter(Boolean);
      expect(lines[0]).toBe(LEDGER_DEPOSIT_CSV_COLUMNS.join(","));
      // No cell here needs quoting but the identifiers, written as text formulas ("=""123""") so a spreadsheet
      // keeps every digit: a split on commas is the row, once those are read back as the text they show.
      const asShown = (cell: string) => cell.replace(/^"=""(\d+)"""$/, "$1");
      expect(lines.slice(1).map((l) => l.split(",").map(asShown))).toEqual(expected);
      const { rows: audit } = await db.query<{
        outcome: string;
        params: Record<string, unknown> | null;
        detail: Record<string, unknown> | null;
      }>(
        "SELECT outcome, params, detail FROM audit_log WHERE action = 'ledger.deposits-export' AND request_id = 'rq-export' ORDER BY id",
      );
      expect(audit.map((a) => a.outcome)).toEqual(["intent", "success"]);
      expect(audit[0]!.params).toMatchObject({ coin: "USDT", minAmount: "100" });
      expect(audit[1]!.detail).toMatchObject({ rows: expected.length, ...sealOf(bytes) });
    });

    it("[ledger][export] a download closed part-way ends the walk and says so in the audit log", async () => {
      const f = ledgerDepositFiltersSchema.parse({});
      const res = await csvResponse(
        csvBody(
          "deposits-ledger",
          LEDGER_DEPOSIT_CSV_COLUMNS,
          await depositsForExport(db, f, compliance, { requestId: "rq-cancel", ip: null }, { batch: 500 }),
        ),
      );
      const reader = res.body!.getReader();
      await reader.read();
      await reader.cancel();
      const { rows: audit } = await db.query<{ outcome: string; detail: { rows: number; cancelled?: boolean } | null }>(
        "SELECT outcome, detail FROM audit_log WHERE action = 'ledger.deposits-export' AND request_id = 'rq-cancel' ORDER BY id",
      );
      expect(audit.map((a) => a.outcome)).toEqual(["intent", "failure"]);
      expect(audit[1]!.detail).toMatchObject({ cancelled: true });
      expect(audit[1]!.detail!.rows).toBeLessThan(12_000);
    });
  },
);
