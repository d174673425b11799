// 2. Proxy overhead: the app's route against a direct signed call to the same simulator.
import { catalog } from "@/lib/platform/catalog";
import { buildQuery, prehash } from "@/lib/platform/protocol";
import { sign } from "@/server/platform/sign";
import { DEMO, callsN, log, results, round, signIn, sleep, table, type App, type Figures } from "./support";

type Key = { apiKey: string; apiSecret: string; passphrase: string };

function quantiles(ms: number[]): { median: number; p99: number } {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? NaN;
  return { median: round(at(0.5)), p99: round(at(0.99)) };
}

async function timed(url: string, headers: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return ms;
}

/** The app's proxy route of a platform path: /api/v2/x → /api/platform/v2/x. */
export const proxyPath = (apiPath: string) => `/api/platform${apiPath.replace(/^\/api/, "")}`;

function signedHeaders(key: Key, apiPath: string, query: string): Record<string, string> {
  const timestamp = String(Date.now());
  return {
    "ACCESS-KEY": key.apiKey,
    "ACCESS-SIGN": sign(key.apiSecret, prehash(timestamp, "GET", apiPath, query, "")),
    "ACCESS-TIMESTAMP": timestamp,
    "ACCESS-PASSPHRASE": key.passphrase,
    "Content-Type": "application/json",
    locale: "en-US",
  };
}

export async function proxyOverhead(app: App): Promise<void> {
  const cookie = await signIn(app.baseUrl, DEMO.broker);
  await fetch(`${app.simUrl}/__sim/rate-limits`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ mode: "off" }),
  });
  const keys = (await (await fetch(`${app.simUrl}/__sim/keys`)).json()) as Record<string, Key>;
  const main = keys.brokerMain;
  if (!main) throw new Error("no brokerMain key from /__sim/keys");
  const registry = (await (await fetch(`${app.baseUrl}/api/sub-accounts`, { headers: { Cookie: cookie } })).json()) as {
    items: { subUid: string }[];
  };
  const subUid = registry.items[0]?.subUid;
  if (!subUid) throw new Error("the registry is empty");
  // E11 answers are cached for PUBLIC_CACHE_MS (1 s): each E11 call names a different contract of 20, so a
  // symbol comes back every ~2.2 s and every proxied call goes to the simulator, as the direct call does.
  const contracts = (await (
    await fetch(`${app.simUrl}${catalog["oiLimits.list"].path}?productType=USDT-FUTURES`)
  ).json()) as { data: { symbol: string }[] };
  const symbols = contracts.data.map((c) => c.symbol).slice(0, 20);
  if (symbols.length < 20)
    throw new Error(`E11 lists ${symbols.length} contracts; the overhead bench needs 20 to miss the cache`);
  const ops = [
    {
      id: "E11",
      apiPath: catalog["oiLimits.list"].path,
      params: (i: number) => ({ productType: "USDT-FUTURES", symbol: symbols[i % symbols.length]! }),
      signed: false,
    },
    { id: "E2", apiPath: catalog["subaccounts.assets"].path, params: () => ({ subUid }), signed: true },
  ];
  // The app's own client limiter allows 10 calls/s per operation (the catalog's limit) whatever the
  // simulator does, so back-to-back calls would measure its queue. Pacing at 9/s keeps every call
  // clear of it; the direct and proxied call of an iteration run back to back so both see the same load.
  const paceMs = 1000 / 9;
  const rows: Figures[] = [];
  for (const op of ops) {
    const urls = (i: number) => {
      const query = buildQuery(op.params(i));
      return {
        query,
        proxyUrl: `${app.baseUrl}${proxyPath(op.apiPath)}?${query}`,
        directUrl: `${app.simUrl}${op.apiPath}?${query}`,
      };
    };
    const direct: number[] = [];
    const proxy: number[] = [];
    // Warm-up: route compilation caches, keep-alive sockets, the registry, and enough calls for V8 to
    // optimise the request path (5 left the first samples of a run on unoptimised code).
    for (let i = 0; i < 30; i++) {
      const { query, proxyUrl, directUrl } = urls(i);
      await timed(directUrl, op.signed ? signedHeaders(main, op.apiPath, query) : {});
      await timed(proxyUrl, { Cookie: cookie });
      await sleep(paceMs * 2);
    }
    await sleep(1100);
    for (let i = 0; i < callsN; i++) {
      const t0 = performance.now();
      const { query, proxyUrl, directUrl } = urls(i);
      direct.push(await timed(directUrl, op.signed ? signedHeaders(main, op.apiPath, query) : {}));
      proxy.push(await timed(proxyUrl, { Cookie: cookie }));
      await sleep(Math.max(0, paceMs - (performance.now() - t0)));
    }
    const d = quantiles(direct);
    const p = quantiles(proxy);
    rows.push({
      op: op.id,
      n: callsN,
      directMedianMs: d.median,
      directP99Ms: d.p99,
      proxyMedianMs: p.median,
      proxyP99Ms: p.p99,
      overheadMedianMs: round(p.median - d.median),
      overheadP99Ms: round(p.p99 - d.p99),
    });
  }
  // The floor: a Next.js route that does nothing. /api/health answers from its 5 s cache (no session, no
  // validation, no platform call) through the same server and proxy.ts as the routes above. Its time over a
  // direct call is what Next itself costs on this machine, before any of Brokerdesk's work; measured paced
  // as above and back to back (where the CPU stays warm).
  const floor: Figures[] = [];
  const healthUrl = `${app.baseUrl}/api/health`;
  const directE11 = `${app.simUrl}${catalog["oiLimits.list"].path}?productType=USDT-FUTURES&symbol=${symbols[0]!}`;
  for (const pacing of ["paced 9/s", "back to back"] as const) {
    const direct: number[] = [];
    const route: number[] = [];
    for (let i = 0; i < 30 + callsN; i++) {
      const t0 = performance.now();
      const d = await timed(directE11, {});
      const r = await timed(healthUrl, {});
      if (i >= 30) {
        direct.push(d);
        route.push(r);
      }
      if (pacing === "paced 9/s") await sleep(Math.max(0, paceMs - (performance.now() - t0)));
    }
    const d = quantiles(direct);
    const r = quantiles(route);
    floor.push({
      pacing,
      n: callsN,
      directMedianMs: d.median,
      noopRouteMedianMs: r.median,
      noopRouteP99Ms: r.p99,
      nextFloorMedianMs: round(r.median - d.median),
    });
  }
  // Back to back, one query: what staff get when they ask faster than the limit (the 1 s public cache).
  const burst: number[] = [];
  const e11 = `${app.baseUrl}${proxyPath(catalog["oiLimits.list"].path)}?productType=USDT-FUTURES`;
  await sleep(1100);
  for (let i = 0; i < Math.min(callsN, 60); i++) burst.push(await timed(e11, { Cookie: cookie }));
  const b = quantiles(burst);
  await fetch(`${app.simUrl}/__sim/rate-limits`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ mode: "on" }),
  });
  table("2. Proxy overhead, paced at 9 calls/s (simulator limits off; target median overhead <= 2 ms)", rows);
  table("   Floor: a Next.js route that does nothing (GET /api/health from its cache) vs the direct E11 call", floor);
  log(
    `  E11 back to back through the proxy, one query (${burst.length} calls): median ${b.median} ms, p99 ` +
      `${b.p99} ms (served from the public-data cache but for one call a second)`,
  );
  results.overhead = {
    pacedPerSecond: 9,
    ops: rows,
    nextFloor: floor,
    e11BackToBack: { n: burst.length, medianMs: b.median, p99Ms: b.p99 },
  };
}
