import { describe, expect, it } from "vitest";
import { PermissionDeniedError } from "./errors";
import { CLOCK_SKEW_MS, checkSessionUser, parseStaffClaims, tokenExpiry } from "./session-rules";
import { afterSignIn, redirectOnThisSite, safeCallbackPath } from "./callback-path";
import { requirePermission, toStaffSession } from "./session";

describe("[auth][session] staff row check", () => {
  it("refuses a missing user, a disabled user and a stale session_version", () => {
    expect(checkSessionUser(null, 0)).toBe("user-missing");
    expect(checkSessionUser({ disabled: true, sessionVersion: 0 }, 0)).toBe("user-disabled");
    expect(checkSessionUser({ disabled: false, sessionVersion: 3 }, 2)).toBe("session-revoked");
    expect(checkSessionUser({ disabled: false, sessionVersion: 2 }, 2)).toBeNull();
  });

  it("expiry: idle counts from the last request, absolute from sign-in, both strictly after the limit", () => {
    const limits = { idleMs: 1000, maxAgeMs: 5000 };
    expect(tokenExpiry({ authAt: 0, seenAt: 0 }, 1000, limits)).toBeNull();
    expect(tokenExpiry({ authAt: 0, seenAt: 0 }, 1001, limits)).toBe("idle-timeout");
    expect(tokenExpiry({ authAt: 0, seenAt: 4500 }, 5000, limits)).toBeNull();
    expect(tokenExpiry({ authAt: 0, seenAt: 4900 }, 5001, limits)).toBe("absolute-timeout");
  });

  it("[security][session] times ahead of the clock beyond the allowed skew are refused, not taken as fresh", () => {
    const limits = { idleMs: 1000, maxAgeMs: 5000 };
    const now = 1_000_000;
    expect(tokenExpiry({ authAt: now, seenAt: now + CLOCK_SKEW_MS }, now, limits)).toBeNull();
    expect(tokenExpiry({ authAt: now, seenAt: now + CLOCK_SKEW_MS + 1 }, now, limits)).toBe("clock-skew");
    expect(tokenExpiry({ authAt: now + 86_400_000, seenAt: now + 86_400_000 }, now, limits)).toBe("clock-skew");
    expect(tokenExpiry({ authAt: now, seenAt: now - 10 }, now, limits)).toBe("clock-skew");
  });

  it("parses only complete claims with a known role", () => {
    const good = {
      uid: "u1",
      email: "a@b.c",
      name: "A",
      role: "broker",
      sv: 0,
      authAt: 1,
      seenAt: 2,
      jti: "2f1c0d3e-9a8b-4c7d-8e6f-5a4b3c2d1e0f",
    };
    // A token without second-factor claims reads as "no factor verified yet".
    const noFactor = { mfaAt: null, mfaMethod: null, mfaEnrolled: false, mfaResetAt: null, mustChangePassword: false };
    expect(parseStaffClaims(good)).toEqual({ ...good, ...noFactor });
    const verified = {
      ...good,
      mfaAt: 5,
      mfaMethod: "totp",
      mfaEnrolled: true,
      mfaResetAt: null,
      mustChangePassword: false,
    };
    expect(parseStaffClaims(verified)).toEqual(verified);
    // Only a true claim (read from the staff row) holds the session to changing its password.
    expect(parseStaffClaims({ ...verified, mustChangePassword: true })?.mustChangePassword).toBe(true);
    expect(parseStaffClaims({ ...verified, mustChangePassword: "yes" })?.mustChangePassword).toBe(false);
    expect(parseStaffClaims({ ...good, mfaMethod: "sms" })).toEqual({ ...good, ...noFactor });
    expect(parseStaffClaims({ ...good, mfaAt: "5" })).toBeNull();
    expect(parseStaffClaims({ ...good, role: "root" })).toBeNull();
    expect(parseStaffClaims({ ...good, sv: "0" })).toBeNull();
    expect(parseStaffClaims({ ...good, seenAt: undefined })).toBeNull();
    expect(parseStaffClaims({ ...good, jti: undefined })).toBeNull();
  });
});

describe("[auth][session] helpers", () => {
  it("maps next-auth's session to a StaffSession, or null when anything is off", () => {
    expect(toStaffSession({ user: { id: "u1", email: "a@b.c", name: null, role: "admin" } })).toEqual({
      userId: "u1",
      email: "a@b.c",
      name: null,
      role: "admin",
    });
    expect(toStaffSession(null)).toBeNull();
    expect(toStaffSession({})).toBeNull();
    expect(toStaffSession({ user: { id: "u1", email: "a@b.c", role: "superuser" } })).toBeNull();
  });

  it("requirePermission throws a typed 403 error for the wrong role and for no session", () => {
    const broker = { userId: "u", email: "b@x.y", name: null, role: "broker" as const };
    expect(() => requirePermission(broker, "withdrawals.write")).not.toThrow();
    expect(() => requirePermission(broker, "users.write")).toThrow(PermissionDeniedError);
    expect(() => requirePermission(null, "users.read")).toThrow(/Sign in first/);
  });

  it("keeps callback URLs on this site", () => {
    expect(safeCallbackPath("/admin/users?x=1")).toBe("/admin/users?x=1");
    expect(safeCallbackPath(["/a", "/b"])).toBe("/a");
    for (const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      undefined,
      3,
    ]) {
      expect(safeCallbackPath(bad)).toBe("/");
    }
  });

  it("[security][redirect] resolves a callbackUrl as a browser does: what browsers strip cannot smuggle another host", () => {
    // Each of these would reach //host/path, or a 500, if taken as written.
    for (const bad of [
      "/\t/evil.example/path",
      "/\n/evil.example",
      "/\r/evil.example",
      " //evil.example",
      "/\t\\evil.example",
      "\\\\evil.example",
      "/.//evil.example",
    ]) {
      const target = safeCallbackPath(bad);
      expect(new URL(target, "http://desk.example").origin, JSON.stringify(bad)).toBe("http://desk.example");
      expect(target.startsWith("//")).toBe(false);
    }
    expect(safeCallbackPath("/\t/evil.example/path")).toBe("/");
    // Characters a Location header cannot carry come back percent-encoded, not as a 500.
    expect(safeCallbackPath("/a\u3002b?q=\u3002")).toBe("/a%E3%80%82b?q=%E3%80%82");
    expect(safeCallbackPath("/deposits?uid=1234567890&range=90d")).toBe("/deposits?uid=1234567890&range=90d");
    expect(safeCallbackPath("/x".repeat(2000))).toBe("/");
  });

  it("[security][redirect] after sign-in: never the sign-in page; next-auth's redirect stays on this origin", () => {
    expect(afterSignIn("/login?callbackUrl=%2Flogin")).toBe("/");
    expect(afterSignIn("/audit?actor=a")).toBe("/audit?actor=a");
    const baseUrl = "http://localhost:3000";
    expect(redirectOnThisSite({ url: "/\t/evil.example/p", baseUrl })).toBe("http://localhost:3000/");
    expect(redirectOnThisSite({ url: "https://evil.example/", baseUrl })).toBe("http://localhost:3000/");
    expect(redirectOnThisSite({ url: "http://localhost:3000/deposits?range=90d", baseUrl })).toBe(
      "http://localhost:3000/deposits?range=90d",
    );
  });
});
