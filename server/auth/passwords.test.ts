import bcrypt from "bcryptjs";
import { describe, expect, it, vi } from "vitest";
import { BCRYPT_COST, dummyVerify, generatePassword, hashPassword, passwordTooLong, verifyPassword } from "./passwords";

/** How a bcrypt hash of BCRYPT_COST begins (the cost in two digits: `$2b$04$`, `$2b$12$`). */
const COST_PREFIX = new RegExp(`^\\$2[aby]\\$${String(BCRYPT_COST).padStart(2, "0")}\\$`);

describe("[auth][passwords]", () => {
  it("hashes with bcrypt at the configured cost and verifies only the right password", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(COST_PREFIX);
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterY", hash)).toBe(false);
  });

  it("salts: the same password hashes differently each time", async () => {
    const [a, b] = await Promise.all([hashPassword("same password 1"), hashPassword("same password 1")]);
    expect(a).not.toBe(b);
  });

  it("treats a malformed stored hash as a failed check, not a crash", async () => {
    expect(await verifyPassword("anything at all", "not-a-bcrypt-hash")).toBe(false);
  });

  it("dummyVerify always fails and spends a real bcrypt comparison at the configured cost", async () => {
    const compare = vi.spyOn(bcrypt, "compare");
    try {
      expect(await dummyVerify("whatever")).toBe(false);
      // A full comparison against a hash of the same cost as real ones, not a short-circuit.
      expect(compare).toHaveBeenCalledTimes(1);
      expect(compare).toHaveBeenCalledWith("whatever", expect.stringMatching(COST_PREFIX));
    } finally {
      compare.mockRestore();
    }
  });

  it("generates long, distinct random passwords and spots over-long ones", () => {
    const a = generatePassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(generatePassword()).not.toBe(a);
    expect(passwordTooLong("x".repeat(72))).toBe(false);
    expect(passwordTooLong("é".repeat(37))).toBe(true); // 74 bytes in UTF-8
  });
});
