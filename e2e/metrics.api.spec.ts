// /metrics for operators: Prometheus's format, answered only to METRICS_ALLOW's addresses
// (loopback by default) or a bearer of METRICS_TOKEN; what it counts is what happened.
import { startForwardingProxy, type ForwardingProxy } from "./support/forwarding-proxy";
import { proxyPath } from "./support/envelope";
import { subUid } from "./support/faults";
import { secretsOfThisRun } from "./support/secrets";
import { signInApi } from "./support/staff";
import { expect, test } from "./support/test";

let outsider: ForwardingProxy;
test.beforeAll(async ({ baseURL }) => {
  // A peer that is not loopback's 127.0.0.1 (and not trusted as a proxy): the client is 127.0.0.3.
  outsider = await startForwardingProxy(baseURL!, "127.0.0.3");
});
test.afterAll(async () => outsider?.stop());

/** The sum of every series of `name` whose labels include `labels` (0 when none), in Prometheus's text format. */
function total(text: string, name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.indexOf("}"));
    if (want.every((w) => inner.split(",").includes(w))) sum += Number(line.slice(line.indexOf("}") + 1));
  }
  return sum;
}

test("[metrics] loopback reads the platform's calls by operation and status, latency, the limiter and Brokerdesk's own 429s", async ({
  request,
}) => {
  await signInApi(request, "compliance");
  const uid = await subUid(request, "desk02");
  const before = await (await request.get("/metrics")).text();
  const answers = await Promise.all(
    Array.from({ length: 40 }, () => request.get(`${proxyPath("rebates.get")}?uid=${uid}`)),
  );
  const served = answers.filter((a) => a.status() === 200).length;
  const busy = answers.filter((a) => a.status() === 429).length;
  const res = await request.get("/metrics");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("text/plain");
  const after = await res.text();
  const delta = (name: string, labels: Record<string, string>) =>
    total(after, name, labels) - total(before, name, labels);
  expect(delta("brokerdesk_platform_requests_total", { operation: "rebates.get", code: "00000", status: "200" })).toBe(
    served,
  );
  expect(delta("brokerdesk_busy_refusals_total", { operation: "rebates.get" })).toBeGreaterThanOrEqual(busy);
  // Every request sent is timed once, whatever came of it (a platform 429 ridden out is a request too), and the
  // platform's 429s are those the calls counted.
  const sent = delta("brokerdesk_platform_requests_total", { operation: "rebates.get" });
  expect(sent).toBeGreaterThanOrEqual(served);
  expect(delta("brokerdesk_platform_request_seconds_count", { operation: "rebates.get" })).toBe(sent);
  expect(delta("brokerdesk_platform_429_total", { operation: "rebates.get" })).toBe(
    delta("brokerdesk_platform_requests_total", { operation: "rebates.get", code: "429", status: "429" }),
  );
  expect(delta("brokerdesk_limiter_wait_seconds_count", { operation: "rebates.get" })).toBeGreaterThanOrEqual(served);
  expect(after).toMatch(/^brokerdesk_limiter_queue_depth\{scope="uid:main:rebates\.get"\} \d+$/m);
  expect(after).toContain("# TYPE brokerdesk_platform_429_total counter");
});

test("[metrics][security] another address is refused; METRICS_TOKEN's bearer is let in from anywhere", async ({
  playwright,
}) => {
  const ctx = await playwright.request.newContext({ baseURL: outsider.baseURL });
  const refused = await ctx.get("/metrics");
  expect(refused.status()).toBe(403);
  expect(await refused.text()).not.toContain("brokerdesk_");
  expect((await ctx.get("/metrics", { headers: { Authorization: "Bearer not-the-token-at-all" } })).status()).toBe(403);
  const admitted = await ctx.get("/metrics", {
    headers: { Authorization: `Bearer ${secretsOfThisRun().METRICS_TOKEN}` },
  });
  expect(admitted.status()).toBe(200);
  expect(await admitted.text()).toContain("brokerdesk_platform_requests_total");
  await ctx.dispose();
});
