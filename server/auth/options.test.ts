import type { JWT } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditInput } from "@/server/audit";
import type { Db } from "@/server/db";
import { openTestPglite } from "@/server/db/testing";
import { SessionRefusedError } from "./errors";
import { createAuthOptions } from "./options";
import { buildSignInThrottle } from "./throttle";
import { createUser, updateUser, type StaffUser } from "./users";

const MIN = 60_000;
const LIMITS = { idleMs: 30 * MIN, maxAgeMs: 12 * 60 * MIN };

let db: Db;
let ana: StaffUser;
let clock = Date.parse("2026-03-01T08:00:00Z");
const audits: AuditInput[] = [];

const options = () =>
  createAuthOptions({
    now: () => clock,
    getDb: async () => db,
    limits: LIMITS,
    mode: "simulator",
    oidc: undefined,
    throttle: buildSignInThrottle(),
    audit: async (_db, entry) => {
      audits.push(entry);
      return { id: audits.length, hash: "0".repeat(64) };
    },
  });

beforeAll(async () => {
  db = await openTestPglite();
  ana = await createUser(
    db,
    { email: "ana@example.com", name: "Ana", role: "lead", password: "a-long-password-1" },
    { mode: "simulator" },
  );
});
afterAll(async () => {
  await db.close();
});

type JwtParams = Parameters<NonNullable<ReturnType<typeof createAuthOptions>["callbacks"]>["jwt"] & object>[0];
const jwt = async (token: JWT, extra: Partial<JwtParams> = {}): Promise<JWT> =>
  options().callbacks!.jwt!({ token, user: undefined as never, account: null, ...extra });

async function signIn(): Promise<JWT> {
  return jwt(
    { name: "Ana", email: "ana@example.com" },
    { trigger: "signIn", user: { id: ana.id, email: "ana@example.com", name: "Ana" } },
  );
}

async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(SessionRefusedError);
  return (e as SessionRefusedError).reason;
}

describe("[security][sign-out] a signed-out token is refused everywhere", () => {
  it("[security][sign-out] after signOut the same token is refused, for every instance reading this database", async () => {
    const t = await signIn();
    expect(typeof t.jti).toBe("string");
    await expect(jwt(t)).resolves.toMatchObject({ uid: ana.id });
    await options().events!.signOut!({ token: t, session: undefined as never });
    expect(await refusal(jwt(t))).toBe("signed-out");
    // Another instance: its own options, the same database.
    expect(
      await refusal(Promise.resolve(options().callbacks!.jwt!({ token: t, user: undefined as never, account: null }))),
    ).toBe("signed-out");
    // A fresh sign-in is a new token, not affected.
    await expect(jwt(await signIn())).resolves.toMatchObject({ uid: ana.id });
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM revoked_sessions WHERE jti = $1", [
      t.jti,
    ]);
    expect(rows[0]!.n).toBe(1);
  });
});

describe("[auth][session] jwt callback", () => {
  it("at sign-in stores uid, role, session version and both clocks", async () => {
    const t = await signIn();
    expect(t).toMatchObject({
      sub: ana.id,
      uid: ana.id,
      email: "ana@example.com",
      role: "lead",
      sv: 0,
      authAt: clock,
      seenAt: clock,
    });
  });

  it("idle timeout: activity within 30 minutes slides seenAt; 30 minutes of silence ends the session", async () => {
    const start = clock;
    let t = await signIn();
    clock += 29 * MIN;
    t = await jwt(t);
    expect(t.seenAt).toBe(start + 29 * MIN);
    clock += 29 * MIN;
    t = await jwt(t); // 58 minutes after sign-in, still fine: never idle for 30
    clock += 30 * MIN + 1;
    expect(await refusal(jwt(t))).toBe("idle-timeout");
    expect(audits.at(-1)).toMatchObject({
      action: "auth.session-refused",
      outcome: "refused",
      detail: { reason: "idle-timeout" },
    });
  });

  it("absolute lifetime: 12 hours after sign-in the session ends, however active", async () => {
    let t = await signIn();
    for (let i = 0; i < 24; i++) {
      clock += 29 * MIN;
      t = await jwt(t);
    }
    // 24 × 29 min = 11 h 36 min: still alive.
    expect(t.seenAt).toBe(clock);
    clock += 25 * MIN;
    expect(await refusal(jwt(t))).toBe("absolute-timeout");
  });

  it("a disabled user's session stops at the next request", async () => {
    const bob = await createUser(
      db,
      { email: "bob@example.com", role: "broker", password: "a-long-password-1" },
      { mode: "simulator" },
    );
    const t = await jwt({ email: bob.email }, { trigger: "signIn", user: { id: bob.id, email: bob.email } });
    await updateUser(db, bob.id, { disabled: true });
    expect(await refusal(jwt(t))).toBe("user-disabled");
  });

  it("a role change (session_version bump) revokes sessions issued before it", async () => {
    const cy = await createUser(
      db,
      { email: "cy@example.com", role: "broker", password: "a-long-password-1" },
      { mode: "simulator" },
    );
    const t = await jwt({ email: cy.email }, { trigger: "signIn", user: { id: cy.id, email: cy.email } });
    await updateUser(db, cy.id, { role: "lead" });
    expect(await refusal(jwt(t))).toBe("session-revoked");
    const again = await jwt({ email: cy.email }, { trigger: "signIn", user: { id: cy.id, email: cy.email } });
    expect((await jwt(again)).role).toBe("lead");
  });

  it("refuses a token without Brokerdesk's claims", async () => {
    expect(await refusal(jwt({ email: "ana@example.com", sub: ana.id }))).toBe("malformed");
  });
});

describe("[auth][session] session callback and options", () => {
  it("exposes only id, e-mail, name, role and the factor step's state to the browser", async () => {
    const t = await signIn();
    const s = await options().callbacks!.session!({
      session: { expires: "2026-03-01T20:00:00.000Z" },
      token: t,
    } as never);
    expect(s).toEqual({
      expires: "2026-03-01T20:00:00.000Z",
      user: { id: ana.id, email: "ana@example.com", name: "Ana", role: "lead" },
      mfa: "ok",
    });
  });

  it("uses JWT sessions living as long as the absolute limit, and /login as the sign-in page", () => {
    const o = options();
    expect(o.session).toEqual({ strategy: "jwt", maxAge: 12 * 3600 });
    expect(o.pages?.signIn).toBe("/login");
    expect(o.providers.map((p) => p.id)).toEqual(["credentials"]);
  });

  it("adds the OIDC provider only when configured", () => {
    const o = createAuthOptions({ oidc: { issuer: "https://id.example.com/", clientId: "bd", clientSecret: "s" } });
    const sso = o.providers.find((p) => p.id === "oidc") as unknown as { wellKnown: string; idToken: boolean };
    expect(sso).toMatchObject({ wellKnown: "https://id.example.com/.well-known/openid-configuration", idToken: true });
  });

  it("authorize() returns the staff user for the right password and null otherwise", async () => {
    const provider = options().providers[0] as unknown as {
      options: { authorize: (c: unknown, r: unknown) => Promise<unknown> };
    };
    const req = { headers: { "x-forwarded-for": "198.51.100.7, 10.0.0.1" } };
    expect(await provider.options.authorize({ email: "ana@example.com", password: "a-long-password-1" }, req)).toEqual({
      id: ana.id,
      email: "ana@example.com",
      name: "Ana",
    });
    expect(await provider.options.authorize({ email: "ana@example.com", password: "nope-nope-nope" }, req)).toBeNull();
    expect(audits.at(-1)).toMatchObject({ action: "auth.sign-in-failed", ip: "198.51.100.7" });
  });
});
