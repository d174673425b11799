// 4. Page weight: the gzipped /_next/static JavaScript each page's HTML references, as the heaviest of the
// roles that may open it (a lead's /withdrawals holds the approval queue a broker's does not).
import { gzipSync } from "node:zlib";
import { PAGES } from "@/lib/pages";
import { ROLES, can, type Role } from "@/lib/rbac";
import { DEMO, results, round, signIn, table, type App } from "./support";

/** Every page of the sidebar, the live views, and the sign-in page a signed-out visitor loads. */
const PATHS = [
  ...Object.values(PAGES)
    .filter((p) => !p.path.includes("["))
    .map((p) => p.path),
  "/login",
];
const WEIGHT_TARGET_KIB = 200;

export async function pageWeight(app: App): Promise<void> {
  const cookies = Object.fromEntries(
    await Promise.all(ROLES.map(async (r) => [r, await signIn(app.baseUrl, DEMO[r])] as const)),
  ) as Record<Role, string>;
  const gzCache = new Map<string, number>();
  const rows: {
    page: string;
    role: string;
    roles: number;
    status: number;
    scripts: number;
    noModuleSkipped: number;
    gzipKiB: number;
    lightestKiB: number;
    ok: boolean;
  }[] = [];
  for (const page of PATHS) {
    const def = Object.values(PAGES).find((p) => p.path === page);
    const roles =
      page === "/login" ? [null] : ROLES.filter((r) => def?.permission === null || (def && can(r, def.permission)));
    const seen: { role: Role | null; status: number; scripts: number; all: number; kib: number }[] = [];
    for (const role of roles) {
      const res = await fetch(`${app.baseUrl}${page}`, {
        headers: role ? { Cookie: cookies[role] } : {},
        redirect: "manual",
      });
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
      seen.push({ role, status: res.status, scripts: scripts.length, all: all.length, kib: round(bytes / 1024, 1) });
    }
    const heaviest = seen.reduce((a, b) => (b.kib > a.kib ? b : a));
    const lightest = Math.min(...seen.map((x) => x.kib));
    rows.push({
      page,
      role: heaviest.role ?? "signed out",
      roles: seen.length,
      status: heaviest.status,
      scripts: heaviest.scripts,
      noModuleSkipped: heaviest.all - heaviest.scripts,
      gzipKiB: heaviest.kib,
      lightestKiB: lightest,
      ok: seen.every((x) => x.status === 200) && heaviest.kib <= WEIGHT_TARGET_KIB,
    });
  }
  table(
    `4. Page weight (gzipped JS per page, the heaviest role that may open it; target <= ${WEIGHT_TARGET_KIB} KiB)`,
    rows,
  );
  results.weight = { targetKiB: WEIGHT_TARGET_KIB, maxKiB: Math.max(...rows.map((r) => r.gzipKiB)), pages: rows };
}
