import { describe, expect, it } from "vitest";
import { PermissionDeniedError } from "./errors";
import { checkSessionUser, parseStaffClaims, tokenExpiry } from "./session-rules";
import { requirePermission, safeCallbackPath, toStaffSession } from "./session";

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

  it("parses only complete claims with a known role", () => {
    const good = { uid: "u1", email: "a@b.c", name: "A", role: "broker", sv: 0, authAt: 1, seenAt: 2 };
    // A token without second-factor claims reads as "no factor verified yet".
    const noFactor = { mfaAt: null, mfaMethod: null, mfaEnrolled: false, mfaResetAt: null };
    expect(parseStaffClaims(good)).toEqual({ ...good, ...noFactor });
    const verified = { ...good, mfaAt: 5, mfaMethod: "totp", mfaEnrolled: true, mfaResetAt: null };
    expect(parseStaffClaims(verified)).toEqual(verified);
    expect(parseStaffClaims({ ...good, mfaMethod: "sms" })).toEqual({ ...good, ...noFactor });
    expect(parseStaffClaims({ ...good, mfaAt: "5" })).toBeNull();
    expect(parseStaffClaims({ ...good, role: "root" })).toBeNull();
    expect(parseStaffClaims({ ...good, sv: "0" })).toBeNull();
    expect(parseStaffClaims({ ...good, seenAt: undefined })).toBeNull();
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
    for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", undefined, 3]) {
      expect(safeCallbackPath(bad)).toBe("/");
    }
  });
});
