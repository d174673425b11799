import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db";
import { openTestPglite } from "@/server/db/testing";
import { DomainError } from "@/lib/api/errors";
import { verifyPassword } from "./passwords";
import {
  DEMO_PASSWORD,
  DEMO_USERS,
  changeOwnPassword,
  createUser,
  findSessionUser,
  findUserByEmail,
  findUserById,
  listUsers,
  resetPassword,
  resetToOneTimePassword,
  seedDemoUsers,
  staffEmailsById,
  updateUser,
} from "./users";

let db: Db;
beforeAll(async () => {
  db = await openTestPglite();
});
afterAll(async () => {
  await db.close();
});

let n = 0;
const fresh = (role: "compliance" | "broker" | "lead" | "admin" = "broker") =>
  createUser(
    db,
    { email: `User${++n}@Example.com`, name: `User ${n}`, role, password: "a-long-password-1" },
    { mode: "simulator" },
  );

async function rejection(p: Promise<unknown>): Promise<DomainError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DomainError);
  return e as DomainError;
}

describe("[auth][users] create and list", () => {
  it("stores the e-mail lower-case, hashes the password and never returns the hash", async () => {
    const u = await fresh("lead");
    expect(u.email).toBe(`user${n}@example.com`);
    expect(u).toMatchObject({
      role: "lead",
      disabled: false,
      sessionVersion: 0,
      hasPassword: true,
      lastSignInAt: null,
    });
    expect(JSON.stringify(u)).not.toMatch(/\$2[aby]\$/);
    const rec = await findUserByEmail(db, u.email.toUpperCase());
    expect(await verifyPassword("a-long-password-1", rec!.passwordHash!)).toBe(true);
    expect((await listUsers(db)).map((x) => x.email)).toContain(u.email);
  });

  it("finds staff e-mails by id for the audit log: an id in capitals too; no UUID and no such id are left out", async () => {
    const u = await fresh();
    const emails = await staffEmailsById(db, [
      u.id.toUpperCase(),
      "not-a-uuid",
      "00000000-0000-4000-8000-000000000000",
    ]);
    expect([...emails]).toEqual([[u.id, u.email]]);
    expect((await staffEmailsById(db, [])).size).toBe(0);
  });

  it("refuses a duplicate e-mail whatever its case (409 on the email field)", async () => {
    const u = await fresh();
    const e = await rejection(
      createUser(
        db,
        { email: u.email.toUpperCase(), role: "broker", password: "another-password-2" },
        { mode: "simulator" },
      ),
    );
    expect(e.status).toBe(409);
    expect(e.fieldErrors?.email?.[0]).toMatch(/already exists/);
  });

  it("names the field in every validation message (422)", async () => {
    const e = await rejection(
      createUser(db, { email: "not-an-email", role: "boss" as "admin", password: "short" }, { mode: "simulator" }),
    );
    expect(e.status).toBe(422);
    expect(Object.keys(e.fieldErrors ?? {}).sort()).toEqual(["email", "password", "role"]);
    expect(e.fieldErrors?.password?.[0]).toMatch(/at least 12/);
  });

  it("refuses a chosen password that meets the length rule but is guessed early, on its field (422), and stores nothing", async () => {
    for (const password of ["aaaaaaaaaaaa", "123456789012", "Password1234", "qwertyuiopasdf"]) {
      const e = await rejection(
        createUser(db, { email: `weak-${password}@example.com`, role: "broker", password }, { mode: "simulator" }),
      );
      expect([e.status, Object.keys(e.fieldErrors ?? {})]).toEqual([422, ["password"]]);
      expect(e.fieldErrors?.password?.[0]).toMatch(/^Password is too easy to guess/);
      expect(e.fieldErrors?.password?.[0]).not.toContain(password);
      expect(await findUserByEmail(db, `weak-${password}@example.com`)).toBeNull();
    }
    // The holder's own e-mail is no password: it is the first thing tried.
    const own = await rejection(
      createUser(
        db,
        { email: "margaret.hopkins@example.com", role: "broker", password: "margaret.hopkins" },
        { mode: "simulator" },
      ),
    );
    expect(own.fieldErrors?.password?.[0]).toMatch(
      /^Password is too easy to guess \(made from the holder's own e-mail or name\)/,
    );
    const u = await fresh();
    expect((await rejection(resetPassword(db, u.id, "abcdefghijklmnop"))).fieldErrors?.password?.[0]).toMatch(
      /too easy to guess/,
    );
    // An admin's choice is checked against the holder's own e-mail too.
    const harold = await createUser(
      db,
      { email: "harold.finch@example.com", role: "broker", password: "a-long-password-1" },
      { mode: "simulator" },
    );
    expect((await rejection(resetPassword(db, harold.id, "harold.finch"))).fieldErrors?.password?.[0]).toMatch(
      /too easy to guess/,
    );
    const mine = await rejection(
      changeOwnPassword(db, u.id, { currentPassword: "a-long-password-1", newPassword: "111111111111" }),
    );
    expect(Object.keys(mine.fieldErrors ?? {})).toEqual(["newPassword"]);
    expect(await verifyPassword("a-long-password-1", (await findUserById(db, u.id))!.passwordHash!)).toBe(true);
  });

  it("reserves the demo domain in live mode", async () => {
    const e = await rejection(
      createUser(db, { email: "x@demo.brokerdesk", role: "admin", password: "a-long-password-1" }, { mode: "live" }),
    );
    expect(e.fieldErrors?.email?.[0]).toMatch(/reserved/);
  });
});

describe("[auth][users] update, disable, reset", () => {
  it("bumps session_version on a role change and on disable/enable, not on a rename", async () => {
    const u = await fresh();
    expect((await updateUser(db, u.id, { name: "Renamed" })).sessionVersion).toBe(0);
    const promoted = await updateUser(db, u.id, { role: "lead" });
    expect(promoted).toMatchObject({ role: "lead", sessionVersion: 1 });
    expect((await updateUser(db, u.id, { role: "lead" })).sessionVersion).toBe(1);
    const off = await updateUser(db, u.id, { disabled: true });
    expect(off).toMatchObject({ disabled: true, sessionVersion: 2 });
    expect((await updateUser(db, u.id, { disabled: false })).sessionVersion).toBe(3);
  });

  it("refuses an empty patch, an unknown id and a malformed id", async () => {
    const u = await fresh();
    expect((await rejection(updateUser(db, u.id, {}))).status).toBe(422);
    expect((await rejection(updateUser(db, "00000000-0000-4000-8000-000000000000", { name: "x" }))).status).toBe(404);
    expect((await rejection(updateUser(db, "42; drop table", { name: "x" }))).status).toBe(404);
  });

  it("an admin cannot disable themself", async () => {
    const a = await fresh("admin");
    await fresh("admin");
    const e = await rejection(updateUser(db, a.id, { disabled: true }, { actorId: a.id }));
    expect([e.status, e.code]).toEqual([409, "cannot_disable_self"]);
    expect((await findUserById(db, a.id))!.disabled).toBe(false);
  });

  it("never leaves the system without an enabled admin", async () => {
    const solo = await openTestPglite();
    try {
      const a = await createUser(
        solo,
        { email: "a@example.com", role: "admin", password: "a-long-password-1" },
        { mode: "live" },
      );
      const b = await createUser(
        solo,
        { email: "b@example.com", role: "admin", password: "a-long-password-1" },
        { mode: "live" },
      );
      await updateUser(solo, b.id, { role: "lead" });
      const demote = await rejection(updateUser(solo, a.id, { role: "broker" }));
      expect([demote.status, demote.code]).toEqual([409, "last_admin"]);
      expect((await rejection(updateUser(solo, a.id, { disabled: true }))).code).toBe("last_admin");
      // Another admin makes it possible again.
      await updateUser(solo, b.id, { role: "admin" });
      expect((await updateUser(solo, a.id, { role: "broker" })).role).toBe("broker");
    } finally {
      await solo.close();
    }
  });

  it("reset password: the new one works, the old one not, and older sessions are revoked", async () => {
    const u = await fresh();
    const after = await resetPassword(db, u.id, "brand-new-password-9");
    expect(after.sessionVersion).toBe(1);
    const rec = await findUserById(db, u.id);
    // The per-request session check sees the bumped version (and only what it needs of the row).
    expect(await findSessionUser(db, u.id)).toEqual({
      id: u.id,
      email: u.email,
      name: u.name,
      role: u.role,
      disabled: false,
      sessionVersion: 1,
      signedOut: false,
      hasFactors: false,
      mustChangePassword: true,
    });
    expect(await findSessionUser(db, "not-a-uuid")).toBeNull();
    expect(await verifyPassword("brand-new-password-9", rec!.passwordHash!)).toBe(true);
    expect(await verifyPassword("a-long-password-1", rec!.passwordHash!)).toBe(false);
    expect((await rejection(resetPassword(db, u.id, "short"))).fieldErrors?.password).toBeDefined();
    expect(
      (await rejection(resetPassword(db, "00000000-0000-4000-8000-000000000000", "brand-new-password-9"))).status,
    ).toBe(404);
  });

  it("a one-time password: made up by Brokerdesk, works once typed, and must be changed before anything else", async () => {
    const u = await fresh();
    const { user, oneTimePassword } = await resetToOneTimePassword(db, u.id, { actor: "admin@test" });
    expect(oneTimePassword).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(user.approverHold?.reason).toBe("password-set-by-admin");
    expect(await verifyPassword(oneTimePassword, (await findUserById(db, u.id))!.passwordHash!)).toBe(true);
    expect((await findSessionUser(db, u.id))?.mustChangePassword).toBe(true);
    expect((await resetToOneTimePassword(db, u.id)).oneTimePassword).not.toBe(oneTimePassword);
    const latest = (await resetToOneTimePassword(db, u.id)).oneTimePassword;
    await changeOwnPassword(db, u.id, { currentPassword: latest, newPassword: "my-own-password-42" });
    expect((await findSessionUser(db, u.id))?.mustChangePassword).toBe(false);
  });
});

describe("[auth][users] demo staff", () => {
  it("simulator mode: one demo user per role with the demo password, idempotently", async () => {
    const sim = await openTestPglite();
    try {
      expect(await seedDemoUsers(sim, "simulator")).toEqual({ created: 4, disabled: 0 });
      expect(await seedDemoUsers(sim, "simulator")).toEqual({ created: 0, disabled: 0 });
      const users = await listUsers(sim);
      expect(users.map((u) => [u.email, u.role])).toEqual(
        [...DEMO_USERS].sort((a, b) => a.email.localeCompare(b.email)).map((d) => [d.email, d.role]),
      );
      const admin = await findUserByEmail(sim, "admin@demo.brokerdesk");
      expect(await verifyPassword(DEMO_PASSWORD, admin!.passwordHash!)).toBe(true);
    } finally {
      await sim.close();
    }
  });

  it("live mode: creates none, and disables (and revokes) any that exist", async () => {
    const live = await openTestPglite();
    try {
      expect(await seedDemoUsers(live, "live")).toEqual({ created: 0, disabled: 0 });
      expect(await listUsers(live)).toEqual([]);
      await seedDemoUsers(live, "simulator"); // a database that once ran the simulator
      expect(await seedDemoUsers(live, "live")).toEqual({ created: 0, disabled: 4 });
      const users = await listUsers(live);
      expect(users.every((u) => u.disabled && u.sessionVersion === 1)).toBe(true);
      expect(await seedDemoUsers(live, "live")).toEqual({ created: 0, disabled: 0 });
    } finally {
      await live.close();
    }
  });
});
