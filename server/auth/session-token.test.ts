import { decode, encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { decodeSessionJwt, sessionCookieName, sessionTokenFrom } from "./session-token";

const SECRET = "a-test-secret-that-is-long-enough-0123456789";
const claims = { sub: "u1", uid: "u1", email: "a@b.c", name: "A", role: "broker", sv: 2, authAt: 1, seenAt: 2 };

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => null,
    (e: unknown) => e,
  );
}

describe("[auth][session] session token decode (cached key)", () => {
  it("decodes what next-auth encodes, to exactly what next-auth's own decode gives", async () => {
    const token = await encode({ token: claims, secret: SECRET, maxAge: 3600 });
    const ours = await decodeSessionJwt({ token, secret: SECRET });
    expect(ours).toEqual(await decode({ token, secret: SECRET }));
    expect(ours).toMatchObject(claims);
    // Second call: the cached key, same answer.
    expect(await decodeSessionJwt({ token, secret: SECRET })).toEqual(ours);
  });

  it("derives per secret and salt like next-auth (salted tokens are not session tokens)", async () => {
    const salted = await encode({ token: claims, secret: SECRET, salt: "other", maxAge: 60 });
    expect(await decodeSessionJwt({ token: salted, secret: SECRET, salt: "other" })).toMatchObject(claims);
    expect(await rejection(decodeSessionJwt({ token: salted, secret: SECRET }))).toBeInstanceOf(Error);
    const token = await encode({ token: claims, secret: SECRET, maxAge: 60 });
    expect(await rejection(decodeSessionJwt({ token, secret: `${SECRET}-rotated` }))).toBeInstanceOf(Error);
  });

  it("refuses a tampered token and an expired one, as next-auth does", async () => {
    const token = await encode({ token: claims, secret: SECRET, maxAge: 3600 });
    const parts = token.split(".");
    const ct = parts[3]!;
    parts[3] = (ct[0] === "A" ? "B" : "A") + ct.slice(1);
    expect(await rejection(decodeSessionJwt({ token: parts.join("."), secret: SECRET }))).toBeInstanceOf(Error);
    expect(await rejection(decode({ token: parts.join("."), secret: SECRET }))).toBeInstanceOf(Error);
    // exp 60 s ago is past the 15 s clock tolerance.
    const expired = await encode({ token: claims, secret: SECRET, maxAge: -60 });
    expect(await rejection(decodeSessionJwt({ token: expired, secret: SECRET }))).toMatchObject({
      code: "ERR_JWT_EXPIRED",
    });
    expect(await decodeSessionJwt({ token: "", secret: SECRET })).toBeNull();
  });

  it("reads the cookie by next-auth's name, joining chunks in order", () => {
    expect(sessionCookieName(false)).toBe("next-auth.session-token");
    expect(sessionCookieName(true)).toBe("__Secure-next-auth.session-token");
    const name = sessionCookieName(false);
    expect(
      sessionTokenFrom(
        [
          { name: "other", value: "x" },
          { name, value: "abc" },
        ],
        name,
      ),
    ).toBe("abc");
    const chunks = [
      { name: `${name}.1`, value: "def" },
      { name: "next-auth.csrf-token", value: "zzz" },
      { name: `${name}.0`, value: "abc" },
    ];
    expect(sessionTokenFrom(chunks, name)).toBe("abcdef");
    expect(sessionTokenFrom([{ name: "next-auth.csrf-token", value: "zzz" }], name)).toBeNull();
    // The Secure name is not matched by the plain one, nor the other way round.
    expect(sessionTokenFrom([{ name: `__Secure-${name}`, value: "abc" }], name)).toBeNull();
  });

  it("[security][cookies] a stray cookie whose name starts with the session cookie's does not spoil the session", () => {
    const name = sessionCookieName(false);
    for (const stray of [`${name}x`, `${name}-evil`, `${name}.7`, `${name}.`, `${name}.0x`]) {
      expect(
        sessionTokenFrom(
          [
            { name: stray, value: "junk" },
            { name, value: "abc" },
          ],
          name,
        ),
        stray,
      ).toBe("abc");
      expect(
        sessionTokenFrom(
          [
            { name, value: "abc" },
            { name: stray, value: "junk" },
          ],
          name,
        ),
        stray,
      ).toBe("abc");
    }
    // Chunks must run from .0 without a gap.
    expect(
      sessionTokenFrom(
        [
          { name: `${name}.0`, value: "ab" },
          { name: `${name}.2`, value: "zz" },
        ],
        name,
      ),
    ).toBe("ab");
    expect(sessionTokenFrom([{ name: `${name}.1`, value: "ab" }], name)).toBeNull();
  });
});
