// 4. Page weight: the gzipped /_next/static JavaScript each page's HTML references.
import { gzipSync } from "node:zlib";
import { DEMO, results, round, signIn, table, type App } from "./support";

const PAGES = [
  "/", "/deposits", "/assets", "/rebates", "/spot/plan-orders", "/spot/fills", "/market/trades", "/futures/oi-limits",
  "/sub-accounts", "/withdrawals", "/risk-units", "/leverage", "/audit", "/admin/users", "/login",
] as const;
const WEIGHT_TARGET_KIB = 200;


export async function pageWeight(app: App): Promise<void> {
  const cookies = { broker: await signIn(app.baseUrl, DEMO.broker), admin: await signIn(app.baseUrl, DEMO.admin) };
  const gzCache = new Map<string, number>();
  const rows: { page: string; status: number; scripts: number; noModuleSkipped: number; gzipKiB: number; ok: boolean }[] = [];
  for (const page of PAGES) {
    // /login is what a signed-out visitor loads; /admin/users needs the admin role.
    const cookie = page === "/login" ? undefined : page === "/admin/users" ? cookies.admin : cookies.broker;
    const res = await fetch(`${app.baseUrl}${page}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
    const html = await res.text();
    // Every /_next/static .js the HTML names (script tags and the flight data's client chunks), less the
    // noModule polyfills: browsers with ES modules (all the app supports) never fetch those.
    const noModule = new Set([...html.matchAll(/<script[^>]*src="([^"]+)"[^>]*noModule/gi)].map((m) => m[1]));
    const all = [...new Set([...html.matchAll(/\/_next\/static\/[^"'\s\\)]+?\.js/g)].map((m) => m[0]))];
    const scripts = all.filter((src) => !noModule.has(src));
    let bytes = 0;
    for (const src of scripts) {
      let gz = gzCache.get(src);
      if (gz === undefined) {
        const body = Buffer.from(await (await fetch(`${app.baseUrl}${src}`)).arrayBuffer());
        gz = gzipSync(body).length;
        gzCache.set(src, gz);
      }
      bytes += gz;
    }
    const gzipKiB = round(bytes / 1024, 1);
    rows.push({ page, status: res.status, scripts: scripts.length, noModuleSkipped: all.length - scripts.length, gzipKiB, ok: res.status === 200 && gzipKiB <= WEIGHT_TARGET_KIB });
  }
  table(`4. Page weight (gzipped JS per page; target <= ${WEIGHT_TARGET_KIB} KiB)`, rows);
  results.weight = { targetKiB: WEIGHT_TARGET_KIB, maxKiB: Math.max(...rows.map((r) => r.gzipKiB)), pages: rows };
}

