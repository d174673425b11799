import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditInput } from "@/server/audit";
import type { Db } from "@/server/db";
import { openTestPglite } from "@/server/db/testing";
import { verifyCredentials, verifyOidcUser, type SignInResult } from "./sign-in";
import { SIGN_IN_FAILED_MESSAGE, buildSignInThrottle } from "./throttle";
import { createUser, findUserByEmail, seedDemoUsers, updateUser } from "./users";

let db: Db;
const PASSWORD = "a-long-password-1";

beforeAll(async () => {
  db = await openTestPglite();
  await createUser(
    db,
    { email: "ana@example.com", name: "Ana", role: "lead", password: PASSWORD },
    { mode: "simulator" },
  );
  const off = await createUser(
    db,
    { email: "off@example.com", role: "broker", password: PASSWORD },
    { mode: "simulator" },
  );
  await updateUser(db, off.id, { disabled: true });
  await db.query("INSERT INTO staff_users (email, role) VALUES ('sso@example.com', 'compliance')");
  await seedDemoUsers(db, "simulator");
});
afterAll(async () => {
  await db.close();
});

function recorder() {
  const rows: AuditInput[] = [];
  const audit = async (_db: Db, entry: AuditInput) => {
    rows.push(entry);
    return { id: rows.length, hash: "0".repeat(64) };
  };
  return { rows, audit };
}

const attempt = (email: unknown, password: unknown, ip: string | null = "198.51.100.1") => ({ email, password, ip });

describe("[auth][sign-in] credentials", () => {
  it("signs in with the right password (any e-mail case), records it and the sign-in time", async () => {
    const { rows, audit } = recorder();
    const r = await verifyCredentials(db, attempt(" ANA@example.com", PASSWORD), {
      audit,
      throttle: buildSignInThrottle(),
      mode: "simulator",
    });
    expect(r.ok).toBe(true);
    expect(rows).toEqual([
      expect.objectContaining({
        action: "auth.sign-in",
        outcome: "success",
        actor: "ana@example.com",
        actorRole: "lead",
      }),
    ]);
    expect((await findUserByEmail(db, "ana@example.com"))!.lastSignInAt).not.toBeNull();
  });

  it("gives the same answer for every failure and records the real reason", async () => {
    const cases: [unknown, unknown, string, "simulator" | "live"][] = [
      ["nobody@example.com", PASSWORD, "unknown-email", "simulator"],
      ["ana@example.com", "wrong-password-123", "wrong-password", "simulator"],
      ["off@example.com", PASSWORD, "disabled", "simulator"],
      ["sso@example.com", PASSWORD, "no-password", "simulator"],
      ["admin@demo.brokerdesk", "brokerdesk-demo", "demo-in-live", "live"],
      ["", "", "missing-fields", "simulator"],
      [42, { x: 1 }, "missing-fields", "simulator"],
    ];
    const results: SignInResult[] = [];
    for (const [email, password, reason, mode] of cases) {
      const { rows, audit } = recorder();
      const r = await verifyCredentials(db, attempt(email, password), { audit, throttle: buildSignInThrottle(), mode });
      results.push(r);
      expect(r).toEqual({ ok: false, reason, message: SIGN_IN_FAILED_MESSAGE });
      expect(rows).toEqual([
        expect.objectContaining({
          action: "auth.sign-in-failed",
          outcome: "failure",
          detail: { reason, provider: "credentials" },
        }),
      ]);
      expect(JSON.stringify(rows)).not.toContain(String(password || "@@"));
    }
    expect(new Set(results.map((r) => (r.ok ? "" : r.message))).size).toBe(1);
  });

  it("after 5 failures the account is throttled: even the right password gets the same generic answer", async () => {
    const throttle = buildSignInThrottle();
    const { rows, audit } = recorder();
    for (let i = 0; i < 5; i++)
      await verifyCredentials(db, attempt("ana@example.com", `guess-number-${i}`, `203.0.113.${i}`), {
        audit,
        throttle,
      });
    const r = await verifyCredentials(db, attempt("ana@example.com", PASSWORD, "203.0.113.99"), { audit, throttle });
    expect(r).toEqual({ ok: false, reason: "throttled", message: SIGN_IN_FAILED_MESSAGE });
    expect(rows.at(-1)).toMatchObject({ action: "auth.sign-in-failed", detail: { reason: "throttled" } });
  });

  it("after 20 failures from one IP, that IP is throttled for every account", async () => {
    const throttle = buildSignInThrottle({ accountFailures: 5, ipFailures: 20, windowSeconds: 900 });
    const { audit } = recorder();
    for (let i = 0; i < 20; i++) await throttle.recordFailure(`spray${i}@example.com`, "192.0.2.50");
    const blocked = await verifyCredentials(db, attempt("ana@example.com", PASSWORD, "192.0.2.50"), {
      audit,
      throttle,
    });
    expect(blocked).toMatchObject({ ok: false, reason: "throttled", message: SIGN_IN_FAILED_MESSAGE });
    expect(
      (await verifyCredentials(db, attempt("ana@example.com", PASSWORD, "192.0.2.51"), { audit, throttle })).ok,
    ).toBe(true);
  });

  it("is fail-closed: if the audit row cannot be written, nobody is signed in", async () => {
    const audit = async () => {
      throw new Error("audit store down");
    };
    await expect(
      verifyCredentials(db, attempt("ana@example.com", PASSWORD), { audit, throttle: buildSignInThrottle() }),
    ).rejects.toThrow("audit store down");
  });

  it("writes real, chained audit rows by default", async () => {
    await verifyCredentials(db, attempt("nobody@example.com", "whatever-pass"), { throttle: buildSignInThrottle() });
    const { rows } = await db.query<{ action: string; detail: unknown }>(
      "SELECT action, detail FROM audit_log ORDER BY id DESC LIMIT 1",
    );
    expect(rows[0]).toMatchObject({ action: "auth.sign-in-failed", detail: { reason: "unknown-email" } });
  });
});

describe("[auth][sign-in] single sign-on", () => {
  it("admits only an existing, enabled staff user with a verified e-mail", async () => {
    const { audit } = recorder();
    expect((await verifyOidcUser(db, { email: "SSO@example.com", emailVerified: true }, { audit })).ok).toBe(true);
    expect(await verifyOidcUser(db, { email: "stranger@example.com", emailVerified: true }, { audit })).toMatchObject({
      reason: "unknown-email",
    });
    expect(await verifyOidcUser(db, { email: "off@example.com", emailVerified: true }, { audit })).toMatchObject({
      reason: "disabled",
    });
    expect(await verifyOidcUser(db, { email: "sso@example.com", emailVerified: false }, { audit })).toMatchObject({
      reason: "email-unverified",
    });
  });
});
