// The control endpoints (/__sim/*) over real HTTP: who may use them.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "./index";

type Reply = { status: number; body: string; headers: Record<string, string | string[] | undefined> };

/** A raw request, so Host, Origin and Content-Type are exactly what a browser or an attacker would send. */
function send(
  sim: Simulator,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: sim.port, method, path, headers: { host: `127.0.0.1:${sim.port}`, ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      },
    );
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const JSON_TYPE = { "content-type": "application/json" };
const RULE = JSON.stringify({ path: "market.trades", kind: "status", status: 500, count: 1 });

describe("[simulator][control] who may use /__sim/*", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
  });
  afterAll(() => sim.close());

  it("[simulator][control] a text/plain or form POST (what a cross-site page can send without a preflight) is 415 and changes nothing", async () => {
    sim.faults.clear();
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const r = await send(sim, "POST", "/__sim/faults", { "content-type": type }, RULE);
      expect(r.status, type).toBe(415);
    }
    expect((await send(sim, "POST", "/__sim/faults", {}, RULE)).status).toBe(415);
    expect((await send(sim, "POST", "/__sim/stats/reset")).status).toBe(415);
    expect(sim.faults.list()).toEqual([]);
    // JSON still works, with a charset too.
    expect(
      (await send(sim, "POST", "/__sim/faults", { "content-type": "application/json; charset=utf-8" }, RULE)).status,
    ).toBe(200);
    expect(sim.faults.list()).toHaveLength(1);
    sim.faults.clear();
  });

  it("[simulator][control] a Host that is not the simulator's own address (DNS rebinding) is 421, also for reads", async () => {
    for (const host of [
      "attacker.example",
      `attacker.example:${sim.port}`,
      "127.0.0.1:1",
      `127.0.0.1.nip.io:${sim.port}`,
    ]) {
      expect((await send(sim, "GET", "/__sim/keys", { host })).status, host).toBe(421);
      expect(
        (await send(sim, "POST", "/__sim/rate-limits", { ...JSON_TYPE, host }, '{"mode":"off"}')).status,
        host,
      ).toBe(421);
    }
    for (const host of [`127.0.0.1:${sim.port}`, `localhost:${sim.port}`, `LOCALHOST:${sim.port}`]) {
      expect((await send(sim, "GET", "/__sim/health", { host })).status, host).toBe(200);
    }
  });

  it("[simulator][control] an Origin other than the simulator's own is 403", async () => {
    const r = await send(
      sim,
      "POST",
      "/__sim/rate-limits",
      { ...JSON_TYPE, origin: "http://attacker.example" },
      '{"mode":"off"}',
    );
    expect(r.status).toBe(403);
    expect((await send(sim, "GET", "/__sim/health", { origin: `http://127.0.0.1:${sim.port}` })).status).toBe(200);
  });

  it("[simulator][control] the platform's own paths are not affected", async () => {
    const r = await send(sim, "GET", "/api/v2/mix/market/oi-limit?productType=USDT-FUTURES", {
      host: "platform.example",
    });
    expect(r.status).toBe(200);
  });
});

describe("[simulator][control] with a control token", () => {
  let sim: Simulator;
  const token = "t0k3n-for-the-simulator-control-0123";
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, controlToken: token });
  });
  afterAll(() => sim.close());

  it("[simulator][control] asks for Authorization: Bearer <token>; a wrong or missing token is 401", async () => {
    const none = await send(sim, "GET", "/__sim/keys");
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(none.body).not.toContain(sim.keys.brokerMain.apiKey);
    expect((await send(sim, "GET", "/__sim/keys", { authorization: `Bearer ${token}x` })).status).toBe(401);
    expect((await send(sim, "GET", "/__sim/keys", { authorization: token })).status).toBe(401);
    const ok = await send(sim, "GET", "/__sim/keys", { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toHaveProperty("brokerMain");
    expect(
      (await send(sim, "POST", "/__sim/stats/reset", { ...JSON_TYPE, authorization: `Bearer ${token}` }, "{}")).status,
    ).toBe(200);
  });
});
