import "server-only";
// Sub-account keys held as data, over a real database and the simulator over loopback HTTP: two "instances" (two
// credential stores on one database, each with its own client) behind a recording proxy that sees every request's
// ACCESS-KEY. A key signs nothing until a second admin approves it; a rotated key signs from the next call on, on
// the instance that was not told; a disabled key is refused before anything is sent; the secret is in no answer,
// audit row or log line; bad input is refused on its field with nothing written.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { needsFreshFactor } from "@/lib/api/define-resource";
import { DomainError } from "@/lib/api/errors";
import { subaccountKeyResources as r } from "@/lib/api/subaccount-keys";
import { env, parseEnv } from "@/lib/env";
import { withAudit } from "@/server/audit";
import { requireFreshFactor } from "@/server/auth/mfa/policy";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { describeFailure } from "@/server/failures";
import { createLogger } from "@/server/log";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore, UnknownKeyError } from "@/server/platform/credentials";
import { sealerOf } from "@/server/platform/key-seal";
import { databaseKeySource } from "@/server/platform/key-store";
import { SlidingWindowLimiter } from "@/server/platform/limiter";
import { startSimulator, type Simulator } from "@/server/simulator";
import { addStaff, deskUid, domainRefusal, registerFromSimulator, staffSession } from "@/server/testing";
import type { StaffSession } from "@/server/auth/session";
import { simulatorKeys } from "./subaccount-keys-sim";
import { addKey, approveKey, disableKey, listKeys, rotateKey, type KeyDeps } from "./subaccount-keys";

const MASTER = `test-sealing-${randomBytes(24).toString("base64url")}`;
const fresh = (label: string) => `${label}${randomBytes(18).toString("base64url")}`.replace(/-/g, "x").slice(0, 40);
const newKey = (label: string) => ({
  apiKey: `bk_${fresh(label)}`.slice(0, 40),
  apiSecret: fresh("sec"),
  passphrase: fresh("pp").slice(0, 24),
});
const LEVERAGE = (leverage: string) => ({
  symbol: "BTCUSDT",
  productType: "USDT-FUTURES" as const,
  marginCoin: "USDT",
  leverage,
});

/** Forwards to the simulator and records each request's ACCESS-KEY header (what the platform would see). */
async function recordingProxy(target: string): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push(String(req.headers["access-key"] ?? ""));
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k)),
      ) as Record<string, string>;
      fetch(new URL(req.url ?? "/", target), {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      })
        .then(async (up) => res.writeHead(up.status, { "content-type": "application/json" }).end(await up.text()))
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

for (const engine of testEngines(process.env.TEST_DATABASE_URL)) {
  describe(`[keys] sub-account keys held as data (${engine.engine})`, () => {
    const bed = databaseTestBed(engine);
    let sim: Simulator;
    let proxy: Awaited<ReturnType<typeof recordingProxy>>;
    const logText: string[] = [];
    const sealer = sealerOf(MASTER)!;
    const [adder, approver, held] = [
      staffSession("admin", `keys-adder-${engine.engine}`),
      staffSession("admin", `keys-approver-${engine.engine}`),
      staffSession("admin", `keys-held-${engine.engine}`),
    ];
    // Two instances on one database: A takes the decisions, B is never told of them.
    let storeA: CredentialStore;
    let storeB: CredentialStore;
    let clientB: PlatformClient;
    let deps: KeyDeps;
    const written: unknown[] = [];
    let checksB = 0;

    /** Through the route's own audit, as the wrapper writes it (the input as params, the answer as outcome). */
    function asRoute<T>(
      session: StaffSession,
      action: "add" | "rotate" | "approve" | "disable",
      input: unknown,
      f: () => Promise<T>,
    ) {
      const subject = { actor: session.email, actorRole: session.role, action: `subaccountKeys.${action}` as const };
      return withAudit(bed.db, subject, input, async () => {
        const out = await f();
        written.push(out);
        return out;
      });
    }

    beforeAll(async () => {
      sim = await startSimulator({ port: 0, rateLimits: "off" });
      proxy = await recordingProxy(sim.baseUrl);
      await registerFromSimulator(bed.db, sim.state.subaccountsOf(sim.state.mainUid));
      await addStaff(bed.db, [adder, approver, held]);
      await bed.db.query(
        "UPDATE staff_users SET approver_hold = 'created-by-admin', approver_hold_at = now(), approver_hold_by = $2 WHERE id = $1",
        [held.userId, adder.email],
      );
      const source = databaseKeySource(async () => bed.db, sealer);
      const log = createLogger(
        new Writable({
          write(chunk: Buffer, _enc, done) {
            logText.push(chunk.toString("utf8"));
            done();
          },
        }),
        "debug",
      );
      storeA = new CredentialStore({ main: sim.keys.brokerMain }, {}, source);
      // Instance B's source counts its generation checks: concurrent calls share one.
      const sourceB = databaseKeySource(async () => bed.db, sealer);
      const countedB = {
        ...sourceB,
        generation: () => {
          checksB++;
          return sourceB.generation();
        },
      };
      storeB = new CredentialStore({ main: sim.keys.brokerMain }, {}, countedB);
      const limiter = () => new SlidingWindowLimiter({ platformWindowMs: 20, safetyMs: 0 });
      clientB = new PlatformClient({ baseUrl: proxy.url, credentials: storeB, limiter: limiter(), logger: log });
      deps = { sealer, credentials: storeA, simulator: simulatorKeys(sim.baseUrl) };
    }, 60_000);
    afterAll(async () => {
      clientB?.close();
      await proxy?.close();
      await sim?.close();
    });

    const rowsOf = (uid: string) =>
      bed.db
        .query<{ version: number; state: string }>(
          "SELECT version, state FROM subaccount_keys WHERE sub_uid = $1 ORDER BY version",
          [uid],
        )
        .then((x) => x.rows);

    it("[keys][two-person] an added key signs nothing until a second admin in good standing with a fresh factor approves it", async () => {
      const uid = deskUid(sim, "desk03");
      const k = newKey("add");
      const added = await asRoute(adder, "add", { uid, ...k }, () => addKey(bed.db, adder, { uid, ...k }, deps));
      expect(added).toMatchObject({ name: `sub${uid}`, state: "pending", active: null, pending: { version: 1 } });
      await storeB.sync();
      expect(storeB.names()).not.toContain(`sub${uid}`);
      // Not approved: refused before anything is sent.
      const before = proxy.seen.length;
      await expect(clientB.call("leverage.set", LEVERAGE("4"), { key: `sub${uid}` })).rejects.toBeInstanceOf(
        UnknownKeyError,
      );
      expect(proxy.seen.length).toBe(before);

      // The adder cannot approve; an admin on approver hold cannot; nor without a fresh factor (the route's check).
      expect((await domainRefusal(approveKey(bed.db, adder, uid, { version: 1 }, deps))).code).toBe("own_request");
      expect((await domainRefusal(approveKey(bed.db, held, uid, { version: 1 }, deps))).code).toBe("approver_on_hold");
      expect(needsFreshFactor(r.approve, { version: 1 })).toBe(true);
      const stale = {
        mfa: {
          state: "ok" as const,
          at: Date.now() - env.mfa.freshMs - 1_000,
          method: "totp" as const,
          enrolled: true,
          required: true,
        },
      };
      expect(() => requireFreshFactor(stale, env.mfa.freshMs, Date.now())).toThrow(
        expect.objectContaining({ code: "mfa_stale" }) as Error,
      );
      expect((await domainRefusal(approveKey(bed.db, approver, uid, { version: 2 }, deps))).code).toBe(
        "already_decided",
      );
      expect(await rowsOf(uid)).toEqual([{ version: 1, state: "pending" }]);

      const approved = await asRoute(approver, "approve", { version: 1 }, () =>
        approveKey(bed.db, approver, uid, { version: 1 }, deps),
      );
      expect(approved).toMatchObject({ state: "active", active: { version: 1, approved: { by: approver.email } } });
      // Instance B was never told: its next call reads the change and signs with the key.
      const answer = await clientB.call("leverage.set", LEVERAGE("4"), { key: `sub${uid}` });
      expect(answer.data.crossMarginLeverage).toBe("4");
      expect(proxy.seen.at(-1)).toBe(k.apiKey);
      expect(storeB.names()).toContain(`sub${uid}`);
      // A second add for the same sub-account is a rotation, not an add.
      expect((await domainRefusal(addKey(bed.db, adder, { uid, ...newKey("again") }, deps))).code).toBe(
        "already_registered",
      );
    });

    it("[keys][rotate] a rotated key signs from the next call on once approved; the old one signs until then", async () => {
      const uid = deskUid(sim, "desk04");
      const [k1, k2] = [newKey("one"), newKey("two")];
      await addKey(bed.db, adder, { uid, ...k1 }, deps);
      await approveKey(bed.db, approver, uid, { version: 1 }, deps);
      await clientB.call("leverage.set", LEVERAGE("5"), { key: `sub${uid}` });
      expect(proxy.seen.at(-1)).toBe(k1.apiKey);

      const rotated = await asRoute(adder, "rotate", k2, () => rotateKey(bed.db, adder, uid, k2, deps));
      expect(rotated).toMatchObject({ state: "rotation-pending", active: { version: 1 }, pending: { version: 2 } });
      await clientB.call("leverage.set", LEVERAGE("6"), { key: `sub${uid}` });
      expect(proxy.seen.at(-1)).toBe(k1.apiKey);
      expect((await domainRefusal(rotateKey(bed.db, adder, uid, newKey("three"), deps))).code).toBe(
        "already_in_progress",
      );

      expect((await domainRefusal(approveKey(bed.db, adder, uid, { version: 2 }, deps))).code).toBe("own_request");
      await approveKey(bed.db, approver, uid, { version: 2 }, deps);
      const answer = await clientB.call("leverage.set", LEVERAGE("7"), { key: `sub${uid}` });
      expect(answer.data.crossMarginLeverage).toBe("7");
      expect(proxy.seen.at(-1)).toBe(k2.apiKey);
      expect(await rowsOf(uid)).toEqual([
        { version: 1, state: "superseded" },
        { version: 2, state: "active" },
      ]);
      // What the check before each database key's call costs when nothing changed (printed, not asserted).
      const started = performance.now();
      for (let i = 0; i < 200; i++) await storeB.resolve(`sub${uid}`);
      console.log(`[keys][resolve] ${engine.engine}: ${((performance.now() - started) / 200).toFixed(3)} ms per call`);
    });

    it("[keys][disable] a disabled key is refused before anything is sent, on the instance that was not told", async () => {
      const uid = deskUid(sim, "desk05");
      const k = newKey("dis");
      await addKey(bed.db, adder, { uid, ...k }, deps);
      await approveKey(bed.db, approver, uid, { version: 1 }, deps);
      await clientB.call("leverage.set", LEVERAGE("3"), { key: `sub${uid}` });
      expect(storeB.names()).toContain(`sub${uid}`);

      // Fifty calls at once check the database with one or two queries between them, each begun after they asked.
      const checksBefore = checksB;
      const all = await Promise.all(Array.from({ length: 50 }, () => storeB.resolve(`sub${uid}`)));
      expect(new Set(all.map((c) => c.apiKey))).toEqual(new Set([k.apiKey]));
      expect(checksB - checksBefore).toBeLessThanOrEqual(2);
      expect(checksB - checksBefore).toBeGreaterThanOrEqual(1);

      // One admin disables it (the adder even: it weakens nothing), on instance A.
      const disabled = await asRoute(adder, "disable", undefined, () => disableKey(bed.db, adder, uid, deps));
      expect(disabled).toMatchObject({ state: "disabled", disabled: { by: adder.email } });
      sim.resetStats();
      const seen = proxy.seen.length;
      await expect(clientB.call("leverage.set", LEVERAGE("9"), { key: `sub${uid}` })).rejects.toBeInstanceOf(
        UnknownKeyError,
      );
      expect(proxy.seen.length).toBe(seen);
      expect(sim.stats().requests).toBe(0);
      expect(storeB.names()).not.toContain(`sub${uid}`);
      const refused = await Promise.allSettled(
        Array.from({ length: 20 }, () => clientB.call("leverage.set", LEVERAGE("9"), { key: `sub${uid}` })),
      );
      expect(refused.every((x) => x.status === "rejected" && x.reason instanceof UnknownKeyError)).toBe(true);
      expect(proxy.seen.length).toBe(seen);
      expect(sim.stats().requests).toBe(0);
      expect((await domainRefusal(disableKey(bed.db, adder, uid, deps))).code).toBe("already_decided");
      // Added again: a new version, pending until a second admin approves it.
      const again = await addKey(bed.db, adder, { uid, ...newKey("back") }, deps);
      expect(again).toMatchObject({ state: "pending", pending: { version: 2 } });
    });

    it("[keys][rsa] an RSA key is sealed, approved and signs (the simulator verifies with its public half)", async () => {
      const uid = deskUid(sim, "desk06");
      const pem = generateKeyPairSync("rsa", { modulusLength: 2048 })
        .privateKey.export({ type: "pkcs8", format: "pem" })
        .toString()
        .trim();
      const input = { uid, apiKey: `bk_rsa_${fresh("r")}`.slice(0, 40), rsaPrivateKey: pem, passphrase: "rsa-pass" };
      await addKey(bed.db, adder, input, deps);
      await approveKey(bed.db, approver, uid, { version: 1 }, deps);
      const answer = await clientB.call("leverage.set", LEVERAGE("8"), { key: `sub${uid}` });
      expect(answer.data.crossMarginLeverage).toBe("8");
      expect(proxy.seen.at(-1)).toBe(input.apiKey);
      const bad = await domainRefusal(
        addKey(
          bed.db,
          adder,
          {
            ...input,
            uid: deskUid(sim, "desk07"),
            rsaPrivateKey: "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----",
          },
          deps,
        ),
      );
      expect(bad.fieldErrors).toHaveProperty("rsaPrivateKey");
      expect(await rowsOf(deskUid(sim, "desk07"))).toEqual([]);
    });

    it("[keys][list] the list shows database keys with who added and approved them, and environment keys marked so", async () => {
      const envStore = new CredentialStore({
        main: sim.keys.brokerMain,
        [`sub${deskUid(sim, "desk08")}`]: newKey("env"),
      });
      const list = await listKeys(bed.db, { sealer, credentials: envStore });
      written.push(list);
      const d3 = list.keys.find((k) => k.uid === deskUid(sim, "desk03"))!;
      expect(d3).toMatchObject({
        source: "database",
        state: "active",
        active: { added: { by: adder.email }, approved: { by: approver.email } },
      });
      expect(d3.subaccountName).toMatch(/^desk03@/);
      expect(list.keys.find((k) => k.uid === deskUid(sim, "desk08"))).toMatchObject({
        source: "environment",
        state: "environment",
      });
      expect(list.keys.find((k) => k.name === "main")).toMatchObject({ source: "environment" });
      // An environment key is changed in the environment, not here.
      const refused = await domainRefusal(
        addKey(bed.db, adder, { uid: deskUid(sim, "desk08"), ...newKey("x") }, { ...deps, credentials: envStore }),
      );
      expect(refused.code).toBe("already_registered");
    });

    it("[keys][bad-input] each route's bad input is refused on its field, and nothing is written", async () => {
      const uid = deskUid(sim, "desk09");
      const good = { uid, ...newKey("ok") };
      const cases: [unknown, string][] = [
        [{ ...good, uid: "12ab" }, "uid"],
        [{ ...good, uid: undefined }, "uid"],
        [{ ...good, apiKey: "short" }, "apiKey"],
        [{ ...good, apiKey: "has space in it" }, "apiKey"],
        [{ ...good, apiSecret: "tooshort" }, "apiSecret"],
        [{ ...good, apiSecret: undefined }, "apiSecret"],
        [{ ...good, rsaPrivateKey: "-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----" }, "apiSecret"],
        [{ ...good, apiSecret: undefined, rsaPrivateKey: "not pem" }, "rsaPrivateKey"],
        [{ ...good, passphrase: "" }, "passphrase"],
        [{ ...good, passphrase: "x".repeat(33) }, "passphrase"],
      ];
      for (const [input, field] of cases) {
        const parsed = r.add.input.safeParse(input);
        expect(parsed.success, JSON.stringify(input)).toBe(false);
        expect(
          parsed.error!.issues.map((i) => i.path[0]),
          field,
        ).toContain(field);
      }
      const { uid: _u, ...rotateGood } = good;
      void _u;
      expect(r.rotate.input.safeParse({ ...rotateGood, passphrase: "has space" }).error?.issues[0]?.path).toEqual([
        "passphrase",
      ]);
      // A rotation's UID is the path's: one in the body is not read.
      expect(r.rotate.input.parse({ ...rotateGood, uid: "1" })).not.toHaveProperty("uid");
      expect(r.approve.input.safeParse({ version: 0 }).error?.issues[0]?.path).toEqual(["version"]);
      expect(r.approve.input.safeParse({ version: "1" }).error?.issues[0]?.path).toEqual(["version"]);
      expect(r.approve.input.safeParse({}).error?.issues[0]?.path).toEqual(["version"]);
      // The workflow's own checks: a UID that is no sub-account in the registry.
      const unknown = await domainRefusal(addKey(bed.db, adder, { ...good, uid: "999999999999" }, deps));
      expect(unknown.code).toBe("invalid_input");
      expect(unknown.fieldErrors).toHaveProperty("uid");
      expect(await rowsOf(uid)).toEqual([]);
      expect(await rowsOf("999999999999")).toEqual([]);
      // Unknown sub-accounts for the path's UID: nothing to rotate, approve or disable.
      expect((await domainRefusal(rotateKey(bed.db, adder, "999999999999", rotateGood as never, deps))).code).toBe(
        "not_found",
      );
      expect((await domainRefusal(approveKey(bed.db, approver, "999999999999", { version: 1 }, deps))).code).toBe(
        "not_found",
      );
      expect((await domainRefusal(disableKey(bed.db, adder, "999999999999", deps))).code).toBe("not_found");
    });

    it("[keys][secret-scan] no secret is in any answer, audit row, log line or the database in the clear", async () => {
      const rows = await bed.db.query<{ sealed: string }>("SELECT sealed FROM subaccount_keys");
      const audit = await bed.db.query<{ row: string }>("SELECT row_to_json(a)::text AS row FROM audit_log a");
      expect(audit.rows.length).toBeGreaterThan(4);
      const haystack = [
        JSON.stringify(written),
        ...audit.rows.map((x) => x.row),
        ...rows.rows.map((x) => x.sealed),
        logText.join(""),
      ].join("\n");
      expect(logText.join("")).toContain("platform call");
      const secrets = await bed.db.query<{ sub_uid: string; version: number; sealed: string }>(
        "SELECT sub_uid, version, sealed FROM subaccount_keys",
      );
      expect(secrets.rows.length).toBeGreaterThan(5);
      for (const s of secrets.rows) {
        const opened = sealer.open(s.sub_uid, s.version, s.sealed);
        for (const value of [opened.apiSecret, opened.passphrase, opened.apiKey]) {
          for (const form of [
            value,
            Buffer.from(value).toString("base64"),
            Buffer.from(value).toString("hex"),
            encodeURIComponent(value),
          ])
            expect(haystack.includes(form), `a secret of ${s.sub_uid} v${s.version}`).toBe(false);
        }
      }
    });
  });
}

describe("[keys][sealing] AES-256-GCM under an HKDF key of KEY_SEALING_SECRET", () => {
  const k = { apiKey: "bk_sealtest_key", apiSecret: "a-secret-of-sufficient-length", passphrase: "pp" };
  it("opens only under the same secret, for the same sub-account and version", () => {
    const s = sealerOf("one-master-secret-of-thirty-two-chars!!")!;
    const sealed = s.seal("123", 1, k);
    expect(sealed).not.toContain(k.apiSecret);
    expect(s.open("123", 1, sealed)).toEqual(k);
    expect(s.seal("123", 1, k)).not.toBe(sealed);
    expect(() => s.open("124", 1, sealed)).toThrow(/does not open/);
    expect(() => s.open("123", 2, sealed)).toThrow(/does not open/);
    expect(() => sealerOf("another-master-secret-of-32-chars!!")!.open("123", 1, sealed)).toThrow(/does not open/);
    try {
      s.open("124", 1, sealed);
    } catch (e) {
      expect(String((e as Error).message)).not.toContain(k.apiSecret);
    }
  });
  it("KEY_SEALING_SECRET may not be NEXTAUTH_SECRET, nor short; simulator mode has a default", () => {
    const same = "x9".repeat(24);
    expect(() => parseEnv({ NEXTAUTH_SECRET: same, KEY_SEALING_SECRET: same })).toThrow(
      /KEY_SEALING_SECRET: must not be NEXTAUTH_SECRET/,
    );
    expect(() => parseEnv({ KEY_SEALING_SECRET: "short" })).toThrow(/KEY_SEALING_SECRET: must be at least 32/);
    expect(parseEnv({}).keySealingSecret).toBeTruthy();
    expect(DomainError).toBeTruthy();
  });
  it("a call with a key no store holds now answers 422 naming the key, saying nothing was sent", () => {
    const f = describeFailure(new UnknownKeyError("sub123"));
    expect(f).toMatchObject({
      code: "invalid_input",
      fieldErrors: { key: [expect.stringContaining("nothing was sent")] },
    });
  });
});
