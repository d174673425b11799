import { describe, expect, it } from "vitest";
import { BCRYPT_COST, dummyVerify, generatePassword, hashPassword, passwordTooLong, verifyPassword } from "./passwords";

describe("[auth][passwords]", () => {
  it("hashes with bcrypt at cost 12 and verifies only the right password", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(new RegExp(`^\\$2[aby]\\$${BCRYPT_COST}\\$`));
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

  it("dummyVerify always fails and spends a real bcrypt comparison", async () => {
    await dummyVerify("warm-up"); // the throw-away hash is made once
    const started = performance.now();
    expect(await dummyVerify("whatever")).toBe(false);
    // A cost-12 comparison takes well over 50 ms; a short-circuit would take ~0.
    expect(performance.now() - started).toBeGreaterThan(50);
  });

  it("generates long, distinct random passwords and spots over-long ones", () => {
    const a = generatePassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(generatePassword()).not.toBe(a);
    expect(passwordTooLong("x".repeat(72))).toBe(false);
    expect(passwordTooLong("é".repeat(37))).toBe(true); // 74 bytes in UTF-8
  });
});
