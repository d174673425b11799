import { afterEach, describe, expect, it, vi } from "vitest";
import { THROTTLE_LIMITS, buildSignInThrottle } from "./throttle";

afterEach(() => vi.useRealTimers());

describe("[auth][throttle]", () => {
  it("uses 5 failures per account and 20 per IP in a 15-minute window", () => {
    expect(THROTTLE_LIMITS).toEqual({ accountFailures: 5, ipFailures: 20, windowSeconds: 900 });
  });

  it("blocks an account after 5 failures, whatever the IP and the e-mail's case", async () => {
    const t = buildSignInThrottle();
    for (let i = 0; i < 4; i++) await t.recordFailure("ana@example.com", `10.0.0.${i}`);
    expect(await t.isBlocked("ana@example.com", "10.0.1.1")).toBe(false);
    await t.recordFailure("ANA@example.com ", "10.0.0.9");
    expect(await t.isBlocked("ana@example.com", "10.0.1.1")).toBe(true);
    expect(await t.isBlocked("bob@example.com", "10.0.1.1")).toBe(false);
  });

  it("blocks an IP after 20 failures spread over many accounts", async () => {
    const t = buildSignInThrottle();
    for (let i = 0; i < 19; i++) await t.recordFailure(`user${i}@example.com`, "192.0.2.7");
    expect(await t.isBlocked("fresh@example.com", "192.0.2.7")).toBe(false);
    await t.recordFailure("user19@example.com", "192.0.2.7");
    expect(await t.isBlocked("fresh@example.com", "192.0.2.7")).toBe(true);
    expect(await t.isBlocked("fresh@example.com", "192.0.2.8")).toBe(false);
  });

  it("a success clears the account's count but not the IP's", async () => {
    const t = buildSignInThrottle({ accountFailures: 2, ipFailures: 3, windowSeconds: 60 });
    await t.recordFailure("ana@example.com", "192.0.2.1");
    await t.recordFailure("ana@example.com", "192.0.2.1");
    expect(await t.isBlocked("ana@example.com", null)).toBe(true);
    await t.recordSuccess("ana@example.com");
    expect(await t.isBlocked("ana@example.com", null)).toBe(false);
    await t.recordFailure("other@example.com", "192.0.2.1");
    expect(await t.isBlocked("x@example.com", "192.0.2.1")).toBe(true);
  });

  it("lets the account try again once the window has passed", async () => {
    vi.useFakeTimers({ now: new Date("2026-01-01T00:00:00Z") });
    const t = buildSignInThrottle({ accountFailures: 1, ipFailures: 10, windowSeconds: 60 });
    await t.recordFailure("ana@example.com", null);
    expect(await t.isBlocked("ana@example.com", null)).toBe(true);
    vi.advanceTimersByTime(61_000);
    expect(await t.isBlocked("ana@example.com", null)).toBe(false);
  });
});
