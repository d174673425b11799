// Counterexamples of the bad-input suite (e2e/bad-input.api.spec.ts) on Brokerdesk's own routes:
// each must be a 4xx naming the field, never a 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditFiltersSchema } from "@/lib/api/audit";
import { withdrawalFiltersSchema } from "@/lib/api/withdrawals";
import type { Db } from "@/server/db";
import { openTestPglite } from "@/server/db/testing";
import { DomainError } from "@/lib/api/errors";
import { checkExport } from "@/lib/platform/export-plan";
import { listWithdrawals } from "./withdrawal-ledger";

const PAST_DATES = "9654522045892581";

describe("[bad-input] filter and export values past what the server can hold", () => {
  it("[withdrawals.read][bad-input] the ledger filters refuse them, naming the field (was a 500: GET /api/withdrawals?to=9654522045892581)", () => {
    const r = withdrawalFiltersSchema.safeParse({ to: PAST_DATES });
    expect(r.error?.issues.map((i) => i.path[0])).toEqual(["to"]);
    expect(withdrawalFiltersSchema.safeParse({ from: "8640000000000000" }).success).toBe(true);
  });

  it("[audit.read][bad-input] the audit filters refuse them, naming the field (was a 500: GET /api/audit?from=8674027981802876)", () => {
    const r = auditFiltersSchema.safeParse({ from: "8674027981802876" });
    expect(r.error?.issues.map((i) => i.path[0])).toEqual(["from"]);
  });

  it("[audit.read][bad-input] a cursor past any row id is refused on cursor (was a 500: GET /api/audit?beforeId=79325429001049413804037484)", () => {
    const r = auditFiltersSchema.safeParse({ cursor: "79325429001049413804037484" });
    expect(r.error?.issues.map((i) => i.path[0])).toEqual(["cursor"]);
    expect(auditFiltersSchema.safeParse({ cursor: "9007199254740991" }).success).toBe(true);
  });

  it("[exports][bad-input] an export refuses them on the field itself, not as an inverted range", () => {
    const now = Date.now();
    const r = checkExport(
      "planOrders.history",
      { symbol: "BTCUSDT", startTime: PAST_DATES, endTime: String(now) },
      { now },
    );
    expect(r).toEqual({ ok: false, fieldErrors: { startTime: "startTime must be a Unix millisecond timestamp" } });
  });
});

describe("[withdrawals.read][bad-input] ledger cursors", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestPglite();
  });
  afterAll(async () => db?.close());

  const refusal = (cursor: string) =>
    listWithdrawals(db, { cursor }).then(
      () => null,
      (e: unknown) => e,
    );

  it.each(["2024", "1", "Jan 1", "2024-02-30T00:00:00.000000Z"])(
    "a cursor whose time JavaScript reads but the database does not (%s) is a 422 on cursor (was a 500 from the database)",
    async (at) => {
      const e = await refusal(Buffer.from(`${at}|c9be0251-17e1-8505-8673-bb3a04f5d4c2`).toString("base64url"));
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).status).toBe(422);
      expect(Object.keys((e as DomainError).fieldErrors ?? {})).toEqual(["cursor"]);
    },
  );

  it("a cursor in the form the ledger writes is read", async () => {
    const cursor = Buffer.from("2024-01-01T00:00:00.123456Z|c9be0251-17e1-8505-8673-bb3a04f5d4c2").toString(
      "base64url",
    );
    expect(await listWithdrawals(db, { cursor })).toEqual({ items: [], nextCursor: null });
  });
});
