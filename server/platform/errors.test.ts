// One client is shared through globalThis by code compiled more than once (instrumentation.ts and the
// routes): an error made by one copy of these classes must be recognised by another (issue found when
// the ledger's start-up began creating the client first: every platform error became a 500).
import { describe, expect, it, vi } from "vitest";
import { PlatformError, PlatformTimeoutError, PlatformCallError } from "./errors";

describe("[platform][errors] recognised across copies of the module", () => {
  it("[platform][errors] instanceof goes by brand and kind, not class identity; names survive minification", async () => {
    const own = new PlatformError("deposits.list", "50000", "System busy", 500);
    vi.resetModules();
    // A second evaluation of the module, as a second bundle would have.
    const other = (await import(/* @vite-ignore */ `./errors?copy=${Date.now()}`)) as typeof import("./errors");
    expect(other.PlatformError).not.toBe(PlatformError);
    const foreign = new other.PlatformError("deposits.list", "50000", "System busy", 500);
    expect(foreign instanceof PlatformError).toBe(true);
    expect(foreign instanceof PlatformCallError).toBe(true);
    expect(foreign instanceof PlatformTimeoutError).toBe(false);
    expect(own instanceof other.PlatformError).toBe(true);
    expect(foreign.name).toBe("PlatformError");
    expect(new Error("x") instanceof PlatformCallError).toBe(false);
    expect({ kind: "platform" } instanceof PlatformError).toBe(false);
  });
});
