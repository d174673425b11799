import { describe, expect, it } from "vitest";
import { lastSetFor, toLeverageChanges, type AuditRowView } from "./history";

const row = (r: Partial<AuditRowView> & Pick<AuditRowView, "id" | "outcome">): AuditRowView => ({
  at: "2026-02-03T04:05:06.000Z",
  actor: "lead@demo.brokerdesk",
  params: null,
  detail: null,
  intentId: null,
  target: null,
  ...r,
});

describe("[leverage.set][history]", () => {
  it("pairs each intent with its outcome, newest first, and keeps an intent without one", () => {
    const rows = [
      row({
        id: 5,
        outcome: "failure",
        intentId: 4,
        detail: { error: "PlatformError", code: "40019", msg: "Parameter holdSide cannot be empty" },
      }),
      row({
        id: 4,
        outcome: "intent",
        params: { symbol: "ETHUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage: "10" },
      }),
      row({
        id: 3,
        outcome: "success",
        intentId: 2,
        detail: {
          code: "00000",
          msg: "success",
          requestTime: 1,
          data: {
            symbol: "BTCUSDT",
            marginCoin: "USDT",
            longLeverage: "20",
            shortLeverage: "20",
            crossMarginLeverage: "25",
            marginMode: "crossed",
          },
        },
      }),
      row({
        id: 2,
        outcome: "intent",
        params: {
          symbol: "BTCUSDT",
          productType: "USDT-FUTURES",
          marginCoin: "USDT",
          leverage: "25",
          holdSide: "long",
        },
      }),
      row({
        id: 1,
        outcome: "intent",
        params: { symbol: "SOLUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage: "5" },
      }),
    ];
    const changes = toLeverageChanges(rows);
    expect(changes.map((c) => [c.id, c.symbol, c.leverage, c.holdSide, c.outcome])).toEqual([
      ["4", "ETHUSDT", "10", "", "failure"],
      ["2", "BTCUSDT", "25", "long", "success"],
      ["1", "SOLUSDT", "5", "", "no outcome"],
    ]);
    expect(changes[0]!.note).toBe("40019 Parameter holdSide cannot be empty");
    expect(changes[1]!.note).toBe("crossed: long 20, short 20, cross 25");
    expect(changes[1]!.at).toBe(String(Date.parse("2026-02-03T04:05:06.000Z")));
  });

  it("reads the account from the key the intent names, and the last set is per account", () => {
    const ok = (id: number, target: string | null, leverage: string) => [
      row({
        id: id + 1,
        outcome: "success",
        intentId: id,
        detail: {
          data: {
            symbol: "BTCUSDT",
            marginCoin: "USDT",
            longLeverage: "20",
            shortLeverage: "20",
            crossMarginLeverage: leverage,
            marginMode: "crossed",
          },
        },
      }),
      row({
        id,
        outcome: "intent",
        target,
        params: { symbol: "BTCUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage },
      }),
    ];
    const changes = toLeverageChanges([
      ...ok(5, "platform-key:sub5481892133", "7"),
      ...ok(3, "platform-key:main", "9"),
      ...ok(1, null, "11"),
    ]);
    expect(changes.map((c) => [c.key, c.leverage])).toEqual([
      ["sub5481892133", "7"],
      ["main", "9"],
      ["main", "11"],
    ]);
    expect(lastSetFor(changes, "sub5481892133", "USDT-FUTURES", "BTCUSDT")?.leverage).toBe("7");
    expect(lastSetFor(changes, "main", "USDT-FUTURES", "BTCUSDT")?.leverage).toBe("9");
    expect(lastSetFor(changes, "sub1", "USDT-FUTURES", "BTCUSDT")).toBeNull();
  });

  it("never invents a request it cannot read", () => {
    const [c] = toLeverageChanges([row({ id: 1, outcome: "intent", params: "redacted" })]);
    expect(c).toMatchObject({ symbol: "", leverage: "", outcome: "no outcome" });
  });
});
