import { describe, expect, it } from "vitest";
import { balanceSeries, historyQuerySchema } from "./history";

describe("[ledger][balance-history] the chart's series", () => {
  it("[ledger][balance-history] one point per snapshot day at its UTC midnight; a coin absent that day held nothing; amounts as sent", () => {
    const h = {
      subUid: "1",
      days: ["2026-01-01", "2026-01-02", "2026-01-03"],
      balances: [
        { day: "2026-01-01", coin: "BTC", total: "0.12345678901", available: "0.1" },
        { day: "2026-01-03", coin: "BTC", total: "2", available: "2" },
        { day: "2026-01-02", coin: "ETH", total: "5", available: "5" },
      ],
    };
    expect(balanceSeries(h, "BTC")).toEqual([
      { t: Date.parse("2026-01-01T00:00:00Z"), value: "0.12345678901" },
      { t: Date.parse("2026-01-02T00:00:00Z"), value: "0" },
      { t: Date.parse("2026-01-03T00:00:00Z"), value: "2" },
    ]);
  });

  it("[ledger][balance-history] days is 1 to 3660, or left out", () => {
    expect(historyQuerySchema.parse({}).days).toBeUndefined();
    expect(historyQuerySchema.parse({ days: "30" }).days).toBe(30);
    expect(historyQuerySchema.safeParse({ days: "0" }).success).toBe(false);
    expect(historyQuerySchema.safeParse({ days: "3661" }).success).toBe(false);
  });
});
