// Counterexamples of the bad-input suite (issue 7, e2e/bad-input.api.spec.ts) on Brokerdesk's own routes:
// a 16-digit time past the last instant a Date can hold became an invalid Date and a 500.
import { describe, expect, it } from "vitest";
import { auditFiltersSchema } from "@/lib/audit-filters";
import { withdrawalFiltersSchema } from "@/lib/withdrawal-form";
import { checkExport } from "./exports";

const PAST_DATES = "9654522045892581";

describe("[bad-input] times past the Date range", () => {
  it("[withdrawals.read][bad-input] the ledger filters refuse them, naming the field (was a 500: GET /api/withdrawals?to=9654522045892581)", () => {
    const r = withdrawalFiltersSchema.safeParse({ to: PAST_DATES });
    expect(r.error?.issues.map((i) => i.path[0])).toEqual(["to"]);
    expect(withdrawalFiltersSchema.safeParse({ from: "8640000000000000" }).success).toBe(true);
  });

  it("[audit.read][bad-input] the audit filters refuse them, naming the field (was a 500: GET /api/audit?from=8674027981802876)", () => {
    const r = auditFiltersSchema.safeParse({ from: "8674027981802876" });
    expect(r.error?.issues.map((i) => i.path[0])).toEqual(["from"]);
  });

  it("[exports][bad-input] an export refuses them on the field itself, not as an inverted range", () => {
    const now = Date.now();
    const r = checkExport("planOrders.history", { symbol: "BTCUSDT", startTime: PAST_DATES, endTime: String(now) }, { now });
    expect(r).toEqual({ ok: false, fieldErrors: { startTime: "startTime must be a Unix millisecond timestamp" } });
  });
});
