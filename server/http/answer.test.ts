import { describe, expect, it } from "vitest";
import { COMPRESS_MIN_BYTES, cacheControlFor } from "./answer";

describe("[proxy][overhead] JSON answers: compression only where it pays", () => {
  it("never lets an answer be cached, and marks only small ones no-transform (next start then skips gzip)", () => {
    expect(cacheControlFor(JSON.stringify({ code: "00000", data: [] }))).toBe("no-store, no-transform");
    expect(cacheControlFor("x".repeat(COMPRESS_MIN_BYTES - 1))).toBe("no-store, no-transform");
    expect(cacheControlFor("x".repeat(COMPRESS_MIN_BYTES))).toBe("no-store");
    // Bytes, not UTF-16 units: 2,048 two-byte characters are 4 KiB on the wire.
    expect(cacheControlFor("é".repeat(COMPRESS_MIN_BYTES / 2))).toBe("no-store");
  });
});
