// 7. Lighthouse: every page of the manifest (lib/pages.ts), signed in as each role that may open it, on an app
// whose ledger is synced and whose sync keeps running, in Debian's Chromium (desktop preset: Lighthouse's
// simulated throttling of a desktop on a fast connection). Per page and role: the performance, accessibility
// and best-practices scores, LCP, TBT and CLS, and the audits that hold a missed target back. Targets:
// accessibility and best practices 100, performance >= 95, CLS <= 0.05, TBT <= 100 ms.
// Writes reports/lighthouse.json (every figure) and reports/lighthouse.md (the table the README links).
// --lh-pages /deposits,/audit and --lh-roles lead,broker run a subset; --lh-one-role with --lh-roles lead,admin
// runs each page once, as the first of those roles that may open it; --lh-keep keeps each whole report in
// reports/lighthouse/ (its bootup-time, mainthread-work-breakdown and long-tasks audits say what blocked).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig, type Result } from "lighthouse";
import { PAGES } from "@/lib/pages";
import { ROLES, can, type Role } from "@/lib/rbac";
import {
  CHROMIUM_ARGS,
  DEMO,
  lhKeep,
  lhOneRole,
  lhPages,
  lhRoles,
  log,
  results,
  round,
  signIn,
  table,
  type App,
} from "./support";
import { ledgerSynced, seed } from "./time-to-data";

export const LIGHTHOUSE_TARGET = {
  performance: 95,
  accessibility: 100,
  bestPractices: 100,
  clsMax: 0.05,
  tbtMaxMs: 100,
};
const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;

type Row = {
  page: string;
  role: Role;
  perf: number | null;
  a11y: number | null;
  bp: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
  ok: boolean;
  heldBy: string;
};

const score = (lhr: Result, id: (typeof CATEGORIES)[number]) => {
  const s = lhr.categories[id]?.score;
  return typeof s === "number" ? Math.round(s * 100) : null;
};
const metric = (lhr: Result, id: string) => {
  const v = lhr.audits[id]?.numericValue;
  return typeof v === "number" ? v : null;
};

/** The audits of a category that lost it points (weighted, below a full score), worst first. */
function heldBack(lhr: Result, id: (typeof CATEGORIES)[number]): string[] {
  const refs = lhr.categories[id]?.auditRefs ?? [];
  return refs
    .filter((r) => r.weight > 0)
    .map((r) => ({ id: r.id, weight: r.weight, score: lhr.audits[r.id]?.score }))
    .filter((a): a is { id: string; weight: number; score: number } => typeof a.score === "number" && a.score < 1)
    .sort((a, b) => b.weight * (1 - b.score) - a.weight * (1 - a.score))
    .map((a) => `${a.id} (${Math.round(a.score * 100)})`);
}

/** The elements whose shifts added most to CLS (Lighthouse's layout-shifts audit), for a page over the target. */
function shifted(lhr: Result): string[] {
  const details = lhr.audits["layout-shifts"]?.details;
  const items: unknown[] = details && "items" in details ? details.items : [];
  return items.slice(0, 2).map((item) => {
    const node = (item as { node?: { selector?: string; nodeLabel?: string } }).node;
    const score = (item as { score?: number }).score;
    return (
      `layout shift ${typeof score === "number" ? score.toFixed(3) : "?"}: ` +
      `${node?.nodeLabel?.slice(0, 40) ?? node?.selector ?? "?"}`
    );
  });
}

/** A page's path with a record filled in for the pages of one record. */
async function recordPaths(app: App, cookie: string): Promise<Map<string, string>> {
  const get = async (p: string) =>
    (await (await fetch(`${app.baseUrl}${p}`, { headers: { Cookie: cookie } })).json()) as unknown;
  const registry = (await get("/api/sub-accounts")) as { items?: { subUid: string }[] };
  const withdrawals = (await get("/api/withdrawals?limit=1")) as { items?: { id: string }[] };
  const out = new Map<string, string>();
  const uid = registry.items?.[0]?.subUid;
  const wid = withdrawals.items?.[0]?.id;
  if (uid) out.set(PAGES.subAccount.path, `/sub-accounts/${uid}`);
  if (wid) out.set(PAGES.withdrawal.path, `/withdrawals/${wid}`);
  return out;
}

export async function lighthouseBench(app: App): Promise<void> {
  const cookies = Object.fromEntries(
    await Promise.all(ROLES.map(async (r) => [r, await signIn(app.baseUrl, DEMO[r])] as const)),
  ) as Record<Role, string>;
  await ledgerSynced(app, cookies.lead);
  await seed(app, cookies.broker);
  const records = await recordPaths(app, cookies.lead);
  const chrome = await chromeLauncher.launch({
    chromePath: "/usr/bin/chromium",
    chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
  });
  const rows: Row[] = [];
  const started = performance.now();
  try {
    for (const def of Object.values(PAGES)) {
      if (lhPages && !lhPages.has(def.path)) continue;
      const target = records.get(def.path) ?? def.path;
      if (target.includes("[")) continue;
      const order = lhRoles ? [...lhRoles].filter((r): r is Role => (ROLES as readonly string[]).includes(r)) : ROLES;
      const allowed = order.filter((r) => def.permission === null || can(r, def.permission));
      const roles = lhOneRole ? allowed.slice(0, 1) : allowed;
      for (const role of roles) {
        const run = await lighthouse(
          `${app.baseUrl}${target}`,
          {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            onlyCategories: [...CATEGORIES],
            // The session: sent with the document and every call the page makes (Lighthouse resets storage).
            extraHeaders: { Cookie: cookies[role] },
          },
          desktopConfig,
        );
        const lhr = run?.lhr;
        if (!lhr) throw new Error(`lighthouse: no result for ${target} as ${role}`);
        if (lhKeep) {
          const dir = path.resolve("reports", "lighthouse");
          mkdirSync(dir, { recursive: true });
          const name = `${target.replace(/^\//, "").replace(/[^a-z0-9-]+/gi, "_") || "home"}.${role}.json`;
          writeFileSync(path.join(dir, name), JSON.stringify(lhr));
        }
        const row: Row = {
          page: target === def.path ? def.path : `${def.path} (${target})`,
          role,
          perf: score(lhr, "performance"),
          a11y: score(lhr, "accessibility"),
          bp: score(lhr, "best-practices"),
          lcpMs: round(metric(lhr, "largest-contentful-paint") ?? NaN, 0),
          tbtMs: round(metric(lhr, "total-blocking-time") ?? NaN, 0),
          cls: round(metric(lhr, "cumulative-layout-shift") ?? NaN, 3),
          ok: false,
          heldBy: "",
        };
        const t = LIGHTHOUSE_TARGET;
        const misses = [
          ...((row.perf ?? 0) < t.performance ? heldBack(lhr, "performance").slice(0, 3) : []),
          ...((row.a11y ?? 0) < t.accessibility ? heldBack(lhr, "accessibility") : []),
          ...((row.bp ?? 0) < t.bestPractices ? heldBack(lhr, "best-practices") : []),
          ...((row.cls ?? 1) > t.clsMax ? shifted(lhr) : []),
          ...(lhr.runtimeError ? [`runtime error ${lhr.runtimeError.code}`] : []),
        ];
        row.ok =
          misses.length === 0 &&
          (row.perf ?? 0) >= t.performance &&
          (row.a11y ?? 0) >= t.accessibility &&
          (row.bp ?? 0) >= t.bestPractices &&
          (row.cls ?? 1) <= t.clsMax &&
          (row.tbtMs ?? Infinity) <= t.tbtMaxMs;
        row.heldBy = [...new Set(misses)].join(", ");
        rows.push(row);
        log(
          `  ${row.page} as ${role}: performance ${row.perf}, accessibility ${row.a11y}, ` +
            `best practices ${row.bp}, LCP ${row.lcpMs} ms, TBT ${row.tbtMs} ms, CLS ${row.cls}` +
            `${row.heldBy ? `; held back by ${row.heldBy}` : ""}`,
        );
      }
    }
  } finally {
    await chrome.kill();
  }
  const minutes = round((performance.now() - started) / 60_000, 1);
  const t = LIGHTHOUSE_TARGET;
  table(
    `7. Lighthouse, desktop preset (targets: performance >= ${t.performance}, accessibility ${t.accessibility}, ` +
      `best practices ${t.bestPractices}, CLS <= ${t.clsMax}, TBT <= ${t.tbtMaxMs} ms; ${minutes} min)`,
    rows,
  );
  results.lighthouse = { target: t, minutes, pages: rows };
  writeReports(rows, minutes);
}

function writeReports(rows: Row[], minutes: number): void {
  const dir = path.resolve("reports");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "lighthouse.json"),
    JSON.stringify({ target: LIGHTHOUSE_TARGET, minutes, rows }, null, 2),
  );
  const cell = (v: unknown) => (v === null || v === undefined ? "—" : String(v));
  const md = [
    "| page | role | performance | accessibility | best practices | " +
      "LCP (ms) | TBT (ms) | CLS | targets met | held back by |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ...rows.map(
      (r) =>
        `| ${r.page} | ${r.role} | ${cell(r.perf)} | ${cell(r.a11y)} | ${cell(r.bp)} | ` +
        `${cell(r.lcpMs)} | ${cell(r.tbtMs)} | ${cell(r.cls)} | ${r.ok ? "yes" : "no"} | ${r.heldBy} |`,
    ),
  ].join("\n");
  writeFileSync(path.join(dir, "lighthouse.md"), `${md}\n`);
  log(`  written: reports/lighthouse.json, reports/lighthouse.md`);
}
