import { describe, expect, it } from "vitest";
import { isSecretKey, redact, REDACTED } from "./redact";

describe("[audit][redact]", () => {
  it("removes secrets by key name, any case or separator, at any depth", () => {
    const input = {
      apiKey: "k",
      API_SECRET: "s",
      Passphrase: "p",
      password: "pw",
      newPassword: "pw2",
      token: "t",
      accessToken: "at",
      sign: "sig",
      signature: "sig2",
      cookie: "c",
      Authorization: "Bearer x",
      headers: {
        "ACCESS-KEY": "k",
        "access-sign": "s",
        "ACCESS-PASSPHRASE": "p",
        "ACCESS-TIMESTAMP": "1",
        "content-type": "application/json",
      },
      nested: [{ credentials: { user: "u" } }, { client_secret: "cs", note: "fine" }],
    };
    expect(redact(input)).toEqual({
      apiKey: REDACTED,
      API_SECRET: REDACTED,
      Passphrase: REDACTED,
      password: REDACTED,
      newPassword: REDACTED,
      token: REDACTED,
      accessToken: REDACTED,
      sign: REDACTED,
      signature: REDACTED,
      cookie: REDACTED,
      Authorization: REDACTED,
      headers: {
        "ACCESS-KEY": REDACTED,
        "access-sign": REDACTED,
        "ACCESS-PASSPHRASE": REDACTED,
        "ACCESS-TIMESTAMP": REDACTED,
        "content-type": "application/json",
      },
      nested: [{ credentials: REDACTED }, { client_secret: REDACTED, note: "fine" }],
    });
  });

  it("keeps what compliance needs: addresses, amounts, UIDs, coins, chains, tags", () => {
    const withdrawal = {
      subUid: "1234567",
      coin: "USDT",
      dest: "on_chain",
      chain: "TRC20",
      address: "TXyz1234",
      tag: "memo-9",
      amount: "1500.25",
      clientOid: "bd-1",
      tokenAddress: "0xabc",
      signedAt: 1,
    };
    expect(redact(withdrawal)).toEqual(withdrawal);
    expect(redact({ params: withdrawal, apiSecret: "x" })).toEqual({ params: withdrawal, apiSecret: REDACTED });
  });

  it("does not change the input, and handles primitives, cycles, depth and huge strings", () => {
    const input = { password: "pw", keep: 1 };
    redact(input);
    expect(input.password).toBe("pw");
    expect(redact("plain")).toBe("plain");
    expect(redact(null)).toBeNull();
    expect(redact(undefined)).toBeUndefined();
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(redact(cyclic)).toEqual({ a: 1, self: "[circular]" });
    const shared = { x: 1 };
    expect(redact({ a: shared, b: shared })).toEqual({ a: { x: 1 }, b: { x: 1 } });
    let deep: Record<string, unknown> = { end: true };
    for (let i = 0; i < 40; i++) deep = { d: deep };
    expect(JSON.stringify(redact(deep))).toContain("[too deep]");
    expect(String(redact("x".repeat(20_000))).endsWith("…[truncated]")).toBe(true);
  });

  it("reads Headers and URLSearchParams as objects, redacting their secrets", () => {
    const headers = new Headers({ "ACCESS-SIGN": "s", cookie: "c", "x-request-id": "r1" });
    expect(redact({ headers })).toEqual({
      headers: { "access-sign": REDACTED, cookie: REDACTED, "x-request-id": "r1" },
    });
    expect(redact(new URLSearchParams("coin=USDT&sign=abc"))).toEqual({ coin: "USDT", sign: REDACTED });
  });

  it.each(["tokenSymbol", "address", "amount", "design", "assignee", "signedAt"])("%s is not a secret key", (key) => {
    expect(isSecretKey(key)).toBe(false);
  });
});
