// A sub-account's timeline against a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set): every
// kind of entry of that sub-account and none of another's, newest first by (time, kind, id), the same rows
// whether read in one page or walked a row at a time (ties included), filtered by kind and by time.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { timelineFiltersSchema, type TimelineEntry } from "@/lib/api/ledger/timeline";
import { appendAudit } from "@/server/audit";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { writeLedger } from "@/server/monitoring/testing";
import { domainRefusal } from "@/server/testing";
import { subaccountTimeline } from "./subaccount-timeline";

const H = 3_600_000;
const T = Date.UTC(2026, 2, 10, 12);
const iso = (ms: number) => new Date(ms).toISOString();
const filters = (raw: Record<string, string>) => timelineFiltersSchema.parse({ subUid: "41", ...raw });

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[timeline] on $engine", (engine) => {
  const bed = databaseTestBed(engine);
  const w1 = randomUUID();
  const w2 = randomUUID();
  let caseId = "";

  beforeAll(async () => {
    const db = bed.db;
    await writeLedger(db, {
      deposits: [
        { orderId: "tl-d1", subUid: "41", coin: "USDT", amount: "100", status: "success", fromAddress: "Ta", ctime: T },
        {
          orderId: "tl-d2",
          subUid: "41",
          coin: "BTC",
          amount: "0.5",
          status: "success",
          fromAddress: "",
          ctime: T + 2 * H,
        },
        // The same millisecond as tl-d2: the key's id orders them, and paging never loses or repeats one.
        {
          orderId: "tl-d3",
          subUid: "41",
          coin: "BTC",
          amount: "0.1",
          status: "pending",
          fromAddress: "",
          ctime: T + 2 * H,
        },
        { orderId: "tl-x1", subUid: "42", coin: "USDT", amount: "7", status: "success", fromAddress: "", ctime: T },
      ],
      withdrawals: [
        { id: w1, subUid: "41", coin: "USDT", amount: "60", address: "out", state: "requested", ms: T + H },
        { id: w2, subUid: "41", coin: "USDT", amount: "5", address: "out", state: "requested", ms: T + 3 * H },
      ],
      prices: [],
    });
    const at = (ms: number) => `timestamptz 'epoch' + ${ms} * interval '1 millisecond'`;
    // Through the state machine, a transition at a time, as the workflows move it.
    await db.query(
      `UPDATE withdrawal_requests SET state = 'approved', approved_by = 'lead@x', approved_at = ${at(T + 1.5 * H)},
         version = version + 1 WHERE id = $1`,
      [w1],
    );
    await db.query(
      `UPDATE withdrawal_requests SET state = 'submitted', submitted_at = ${at(T + 1.6 * H)},
         platform_order_id = 'po-1', version = version + 1 WHERE id = $1`,
      [w1],
    );
    await db.query(
      `UPDATE withdrawal_requests SET state = 'rejected', rejected_by = 'lead@x', rejected_at = ${at(T + 3.5 * H)},
         reject_reason = 'no', version = version + 1 WHERE id = $1`,
      [w2],
    );
    await db.query(
      `INSERT INTO ledger_snapshot_days (job, sub_uid, day, taken_at) VALUES ('assets-snapshot', '41', '2026-03-10', ${at(T + 4 * H)})`,
    );
    await db.query(
      `INSERT INTO ledger_asset_snapshots (sub_uid, day, coin, available, frozen, locked)
       VALUES ('41', '2026-03-10', 'USDT', 40, 0, 0), ('41', '2026-03-10', 'BTC', 0.5, 0.1, 0)`,
    );
    caseId = (await db.query<{ id: string }>(`INSERT INTO monitoring_cases (sub_uid) VALUES ('41') RETURNING id::text`))
      .rows[0]!.id;
    await db.query(
      `WITH r AS (INSERT INTO monitoring_rules (name, created_by) VALUES ('tl-big', 'bob') RETURNING id),
            v AS (INSERT INTO monitoring_rule_versions (rule_id, version, kind, params, severity, author)
                  SELECT id, 1, 'large_deposit', '{}', 'high', 'bob' FROM r RETURNING id, rule_id)
       INSERT INTO monitoring_alerts (rule_version_id, rule_id, sub_uid, occurrence, window_start, window_end,
         severity, holds, value, case_id, raised_at)
       SELECT v.id, v.rule_id, '41', 'd:tl-d1', 0, 0, 'high', false, '100', $1::uuid, ${at(T + 5 * H)} FROM v`,
      [caseId],
    );
    await db.query(
      `INSERT INTO monitoring_case_notes (case_id, author, body, created_at) VALUES ($1, 'alice@x', 'Looked', ${at(T + 6 * H)})`,
      [caseId],
    );
    const audit = (target: string, params: unknown) =>
      appendAudit(db, { actor: "lead@x", action: "withdrawals.approve", outcome: "success", target, params });
    await audit(`withdrawal:${w1}`, {});
    await audit("subaccount:41", {});
    await audit(`case:${caseId}`, {});
    await audit("subaccount:42", {});
  });

  async function walk(raw: Record<string, string>, limit: number): Promise<TimelineEntry[]> {
    const all: TimelineEntry[] = [];
    let cursor: string | undefined;
    do {
      const page = await subaccountTimeline(
        bed.db,
        filters({ ...raw, limit: String(limit), ...(cursor ? { cursor } : {}) }),
      );
      expect(page.rows.length).toBeLessThanOrEqual(limit);
      all.push(...page.rows);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return all;
  }

  it("[timeline] holds every kind of the sub-account's entries and none of another's, newest first", async () => {
    const { rows, nextCursor } = await subaccountTimeline(bed.db, filters({ limit: "200" }));
    expect(nextCursor).toBeNull();
    const kinds = rows.map((r) => `${r.kind} ${r.id}`);
    expect(kinds.filter((k) => !k.startsWith("audit "))).toEqual([
      `case-note ${kinds.find((k) => k.startsWith("case-note"))!.slice(10)}`,
      expect.stringMatching(/^alert \d+$/),
      "balance 2026-03-10",
      `withdrawal-decided ${w2}`,
      `withdrawal-requested ${w2}`,
      "deposit tl-d3",
      "deposit tl-d2",
      `withdrawal-sent ${w1}`,
      `withdrawal-decided ${w1}`,
      `withdrawal-requested ${w1}`,
      "deposit tl-d1",
    ]);
    // The audit entries about it: its own, its withdrawal's decision and its case's; not the other's.
    const audits = rows.filter((r) => r.kind === "audit");
    expect(audits.map((a) => a.detail).sort()).toEqual([
      `by lead@x on case:${caseId}`,
      "by lead@x on subaccount:41",
      `by lead@x on withdrawal:${w1}`,
    ]);
    expect(rows.some((r) => r.id === "tl-x1" || r.detail.includes("subaccount:42"))).toBe(false);
    // Each links to its own page where it has one; times are UTC to the millisecond.
    const by = (kind: string) => rows.find((r) => r.kind === kind)!;
    expect(by("deposit")).toMatchObject({ at: iso(T + 2 * H), href: "/deposits/tl-d3", title: "Deposit of 0.1 BTC" });
    expect(by("withdrawal-sent")).toMatchObject({
      href: `/withdrawals/${w1}`,
      detail: "now submitted; platform order po-1",
    });
    expect(by("withdrawal-decided")).toMatchObject({ title: "Withdrawal of 5 USDT rejected", detail: "by lead@x: no" });
    expect(by("alert").href).toBe(`/alerts/cases/${caseId}`);
    expect(by("case-note")).toMatchObject({ href: `/alerts/cases/${caseId}`, detail: "Looked", at: iso(T + 6 * H) });
    expect(by("balance").detail).toBe("BTC 0.6, USDT 40");
    expect(audits.find((a) => a.detail.includes("withdrawal:"))!.href).toBe(`/withdrawals/${w1}`);
    expect(audits.find((a) => a.detail.includes("subaccount:"))!.href).toBeNull();
  });

  it("[timeline] a row at a time walks the same rows as one page, ties included, each once", async () => {
    const whole = (await subaccountTimeline(bed.db, filters({ limit: "200" }))).rows;
    expect(await walk({}, 1)).toEqual(whole);
    expect(await walk({}, 4)).toEqual(whole);
  });

  it("[timeline] filters by kind and by time (both ends included)", async () => {
    expect((await walk({ kinds: "deposit" }, 2)).map((r) => r.id)).toEqual(["tl-d3", "tl-d2", "tl-d1"]);
    const money = await walk({ kinds: "withdrawal-requested,withdrawal-decided,withdrawal-sent" }, 2);
    expect(money.map((r) => r.kind)).toEqual([
      "withdrawal-decided",
      "withdrawal-requested",
      "withdrawal-sent",
      "withdrawal-decided",
      "withdrawal-requested",
    ]);
    const window = await walk(
      {
        from: String(T + H),
        to: String(T + 3 * H),
        kinds: "deposit,withdrawal-requested,withdrawal-decided,withdrawal-sent",
      },
      3,
    );
    expect(window.map((r) => `${r.kind} ${r.at}`)).toEqual([
      `withdrawal-requested ${iso(T + 3 * H)}`,
      `deposit ${iso(T + 2 * H)}`,
      `deposit ${iso(T + 2 * H)}`,
      `withdrawal-sent ${iso(T + 1.6 * H)}`,
      `withdrawal-decided ${iso(T + 1.5 * H)}`,
      `withdrawal-requested ${iso(T + H)}`,
    ]);
  });

  it("[timeline] refuses a bad kind, a reversed range and a foreign cursor on their fields", async () => {
    const bad = timelineFiltersSchema.safeParse({ subUid: "41", kinds: "deposit,trades" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["kinds"]);
    expect(bad.error?.issues[0]?.message).toMatch(/^kinds is a comma-separated list of deposit, /);
    const reversed = timelineFiltersSchema.safeParse({ subUid: "41", from: String(T), to: String(T - 1) });
    expect(reversed.error?.issues[0]?.path).toEqual(["to"]);
    expect(timelineFiltersSchema.safeParse({ subUid: "4x" }).error?.issues[0]?.path).toEqual(["subUid"]);
    const e = await domainRefusal(subaccountTimeline(bed.db, filters({ cursor: "bm90LWEta2V5" })));
    expect(e.status).toBe(422);
    expect(Object.keys(e.fieldErrors ?? {})).toEqual(["cursor"]);
  });
});
