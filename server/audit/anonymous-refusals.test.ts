import { describe, expect, it } from "vitest";
import { openTestPglite } from "@/server/db/testing";
import { AnonymousRefusals, type AnonymousRefusal } from "./anonymous-refusals";
import { appendAudit, verifyAuditChain, type AuditInput } from "./index";

const MINUTE = 60_000;
const T0 = Date.parse("2026-01-01T10:00:00Z");

function harness(opts: { maxAddresses?: number } = {}) {
  let now = T0;
  const timers: { at: number; fn: () => void }[] = [];
  const rows: AuditInput[] = [];
  const tally = new AnonymousRefusals({
    now: () => now,
    maxAddresses: opts.maxAddresses,
    schedule: (fn, ms) => void timers.push({ at: now + ms, fn }),
  });
  const write = async (e: AuditInput) => void rows.push(e);
  let n = 0;
  const refuse = (ip: string | null, path = "/api/audit") => {
    const r: AnonymousRefusal = {
      ip,
      path,
      requestId: `req-${++n}`,
      status: 401,
      code: "unauthenticated",
      reason: "Sign in first",
    };
    return tally.record(r, write);
  };
  /** Moves the clock and runs the timers that are due. */
  const advance = async (ms: number) => {
    now += ms;
    for (const t of timers.splice(0).filter((t) => t.at <= now)) t.fn();
    await tally.flush();
  };
  return { tally, rows, refuse, advance, timers, setNow: (t: number) => (now = t) };
}

describe("[audit][anonymous-refusals] evidence without filling the log", () => {
  it("[anonymous-refusals] writes an address's first refusal of the minute, counts the rest, and writes the count when the minute ends", async () => {
    const h = harness();
    expect(await h.refuse("198.51.100.7", "/api/audit")).toBe("written");
    for (let i = 0; i < 99; i++)
      expect(await h.refuse("198.51.100.7", i % 2 ? "/api/withdrawals" : "/api/audit")).toBe("counted");
    expect(h.rows).toHaveLength(1);
    expect(h.rows[0]).toMatchObject({
      actor: "anonymous",
      action: "request.refused",
      outcome: "refused",
      target: "/api/audit",
      ip: "198.51.100.7",
      requestId: "req-1",
      detail: { status: 401, code: "unauthenticated" },
    });
    // One timer for the minute's end, however many were counted.
    expect(h.timers).toHaveLength(1);
    await h.advance(MINUTE);
    expect(h.rows).toHaveLength(2);
    expect(h.rows[1]).toMatchObject({
      actor: "anonymous",
      action: "request.refused.aggregate",
      outcome: "refused",
      ip: "198.51.100.7",
      target: "/api/audit",
      requestId: null,
      detail: {
        count: 99,
        from: "2026-01-01T10:00:00.000Z",
        to: "2026-01-01T10:01:00.000Z",
        codes: { unauthenticated: 99 },
        paths: ["/api/audit", "/api/withdrawals"],
        firstRequestId: "req-1",
      },
    });
  });

  it("[anonymous-refusals] a refusal after the minute writes the minute's count first, then its own row", async () => {
    const h = harness();
    await h.refuse("203.0.113.9");
    await h.refuse("203.0.113.9");
    await h.refuse("203.0.113.9");
    h.setNow(T0 + MINUTE + 5); // the timer has not run (a busy event loop)
    expect(await h.refuse("203.0.113.9")).toBe("written");
    expect(h.rows.map((r) => [r.action, (r.detail as { count?: number }).count])).toEqual([
      ["request.refused", undefined],
      ["request.refused.aggregate", 2],
      ["request.refused", undefined],
    ]);
  });

  it("[anonymous-refusals] writes nothing more for an address refused once, and each address gets its own first row", async () => {
    const h = harness();
    await h.refuse("192.0.2.1");
    await h.refuse("192.0.2.2");
    await h.refuse(null);
    await h.advance(MINUTE);
    expect(h.rows.map((r) => [r.action, r.ip])).toEqual([
      ["request.refused", "192.0.2.1"],
      ["request.refused", "192.0.2.2"],
      ["request.refused", null],
    ]);
    expect(h.timers).toHaveLength(0);
  });

  it("[anonymous-refusals] past the address cap, further addresses share one overflow count: rotating addresses fills nothing", async () => {
    const h = harness({ maxAddresses: 3 });
    for (let i = 0; i < 1_000; i++) await h.refuse(`10.0.${i >> 8}.${i & 255}`);
    expect(h.rows).toHaveLength(3);
    await h.advance(MINUTE);
    expect(h.rows).toHaveLength(4);
    expect(h.rows[3]).toMatchObject({
      action: "request.refused.aggregate",
      ip: null,
      detail: { count: 997, overflow: "addresses past the first 3 of the minute" },
    });
  });

  it("[anonymous-refusals] rows go through the audit log's chain (PGlite)", async () => {
    const db = await openTestPglite();
    try {
      const tally = new AnonymousRefusals({ schedule: () => undefined });
      for (let i = 0; i < 50; i++) {
        await tally.record(
          {
            ip: "127.0.0.1",
            path: `/api/${"x".repeat(600)}`,
            requestId: `r${i}`,
            status: 401,
            code: "unauthenticated",
            reason: "Sign in first",
          },
          (e) => appendAudit(db, e),
        );
      }
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM audit_log WHERE actor = 'anonymous'",
      );
      expect(rows[0]!.n).toBe(1);
      expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 1 });
    } finally {
      await db.close();
    }
  });
});
