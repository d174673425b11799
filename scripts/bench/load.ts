// 3. Staff load: 50 signed-in sessions on the read pages' API routes, with the platform --load-latency ms away
// (± --jitter): p50, p99, errors, and how many answers were Brokerdesk's own 429 against the platform's.
import autocannon from "autocannon";
import { catalog } from "@/lib/platform/catalog";
import { buildQuery } from "@/lib/platform/protocol";
import { proxyPath } from "./overhead";
import { DAY, DEMO, jitterMs, loadLatencyMs, results, round, seconds, signIn, table, type App } from "./support";

export async function staffLoad(app: App): Promise<void> {
  const connections = 50;
  // The roles that may read every route below (broker lacks audit.read).
  const roles = [DEMO.compliance, DEMO.lead, DEMO.admin];
  const cookies: string[] = [];
  for (let i = 0; i < connections; i++)
    cookies.push(await signIn(app.baseUrl, roles[i % roles.length] ?? DEMO.compliance));
  const registry = (await (
    await fetch(`${app.baseUrl}/api/sub-accounts`, { headers: { Cookie: cookies[0] ?? "" } })
  ).json()) as { items: { subUid: string }[] };
  const subUid = registry.items[0]?.subUid ?? "";
  const now = Date.now();
  const paths = [
    "/api/sub-accounts",
    "/api/withdrawals",
    "/api/risk-units",
    "/api/audit",
    `${proxyPath(catalog["oiLimits.list"].path)}?productType=USDT-FUTURES`,
    `${proxyPath(catalog["market.trades"].path)}?symbol=BTCUSDT&limit=100`,
    `${proxyPath(catalog["subaccounts.assets"].path)}?subUid=${subUid}`,
    `${proxyPath(catalog["deposits.list"].path)}?` +
      buildQuery({ userId: subUid, startTime: now - 7 * DAY, endTime: now }),
  ];
  const post = (path: string, body: unknown) =>
    fetch(`${app.simUrl}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  if (loadLatencyMs > 0)
    await post("/__sim/faults", { path: "*", kind: "latency", latencyMs: loadLatencyMs, jitterMs });
  await post("/__sim/stats/reset", {});
  let next = 0;
  const byStatus = new Map<string, number>();
  const result = await autocannon({
    url: app.baseUrl,
    connections,
    duration: seconds,
    // One session per connection, as 50 staff each with their own cookie: autocannon's context is per
    // connection, and a request with setupRequest is rebuilt each time (setHeaders would reach only the first).
    requests: paths.map((p) => ({
      method: "GET" as const,
      path: p,
      setupRequest: (req: autocannon.Request, context: { cookie?: string }) => {
        context.cookie ??= cookies[next++ % cookies.length] ?? "";
        return { ...req, headers: { ...req.headers, cookie: context.cookie } };
      },
      onResponse: (status: number) => {
        const k = `${status} ${p.split("?")[0] ?? p}`;
        byStatus.set(k, (byStatus.get(k) ?? 0) + 1);
      },
    })),
  });
  const stats = (await (await fetch(`${app.simUrl}/__sim/stats`)).json()) as { http429: number; requests: number };
  await fetch(`${app.simUrl}/__sim/faults`, { method: "DELETE" });
  const own429 = [...byStatus].filter(([k]) => k.startsWith("429 ")).reduce((n, [, c]) => n + c, 0);
  const row = {
    connections,
    seconds,
    platformLatencyMs: loadLatencyMs,
    requests: result.requests.total,
    reqPerSec: round(result.requests.average, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    "4xx": result["4xx"],
    "5xx": result["5xx"],
    brokerdeskBusy429: own429,
    platformRequests: stats.requests,
    platformHttp429: stats.http429,
  };
  const statuses = Object.fromEntries([...byStatus].sort(([a], [b]) => a.localeCompare(b)));
  table(
    "3. Staff load: answers by status and route",
    Object.entries(statuses).map(([k, count]) => ({ answer: k, count })),
  );
  table(`3. Staff load (${connections} sessions, ${seconds} s; target 0 errors, 0 x platform 429)`, [row]);
  results.load = { paths, ...row, statuses };
}
