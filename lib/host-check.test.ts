import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { proxy } from "@/proxy";
import { hostProblem, type HostRule } from "./host-check";

const live: HostRule = { origin: "https://desk.example.com", simulator: false, trustProxy: false };
const sim: HostRule = { origin: "http://localhost:3800", simulator: true, trustProxy: false };
const ask = (host: string | null, rule: HostRule, path = "/api/auth/csrf", forwardedHost: string | null = null) =>
  hostProblem({ host, forwardedHost, path }, rule);

describe("[security][dns-rebinding] only the configured host is answered", () => {
  it.each([
    ["desk.example.com", live, true],
    ["DESK.example.com", live, true],
    ["desk.example.com:443", live, false],
    ["evil.example", live, false],
    ["127.0.0.1:3000", live, false],
    ["localhost:3800", sim, true],
    ["localhost:4123", sim, true],
    ["127.0.0.1:3800", sim, true],
    ["127.9.9.9:4100", sim, true],
    ["[::1]:3800", sim, true],
    ["evil.example:3800", sim, false],
    ["localhost.evil.example:3800", sim, false],
    ["127.0.0.1.nip.io:3800", sim, false],
    ["10.0.0.5:3800", sim, false],
    ["", sim, false],
  ])("Host %s (%o): answered %s", (host, rule, answered) => {
    expect(ask(host, rule) === null).toBe(answered);
  });

  it("names the configured origin in the refusal", () => {
    expect(ask("evil.example:3800", sim)).toBe(
      "This Brokerdesk answers at http://localhost:3800 only, not at evil.example:3800",
    );
  });

  it("behind a trusted proxy the forwarded host is the one checked; from anyone else it is ignored", () => {
    const proxied = { ...live, trustProxy: true };
    expect(ask("10.0.0.5:3000", proxied, "/", "desk.example.com")).toBeNull();
    expect(ask("desk.example.com", proxied, "/", "evil.example")).not.toBeNull();
    expect(ask("desk.example.com", live, "/", "evil.example")).toBeNull();
    expect(ask("evil.example", live, "/", "desk.example.com")).not.toBeNull();
  });

  it("the health check and the metrics scrape answer any host", () => {
    expect(ask("10.0.0.5:3000", live, "/api/health")).toBeNull();
    expect(ask("10.0.0.5:3000", live, "/metrics")).toBeNull();
    expect(ask("10.0.0.5:3000", live, "/api/healthz")).not.toBeNull();
  });

  it("the request proxy refuses a rebound name before sign-in (421), and answers the configured one", () => {
    const rebound = new NextRequest("http://evil.example:3800/api/auth/callback/credentials", {
      method: "POST",
      headers: { host: "evil.example:3800", origin: "http://evil.example:3800" },
    });
    const refused = proxy(rebound);
    expect(refused.status).toBe(421);
    expect(refused.headers.get("x-middleware-next")).toBeNull();
    const own = new URL(env.nextAuthUrl);
    const ok = proxy(new NextRequest(`${own.origin}/login`, { headers: { host: own.host } }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-middleware-next")).toBe("1");
  });
});
