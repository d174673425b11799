// What keeps every page within 200 KiB: the modules a page calls Brokerdesk's API through (each area's route
// table, lib/api/<area>/routes.ts) load no zod, statically, whatever they import; the schemas come with the first
// call (lazyResource). Walks the static imports (not `import()`, not `import type`) from each module below and
// fails on the first that reaches zod. And the tables are what `npm run api:routes` writes from the entries.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { LazyResource } from "./call";
import { healthResource } from "./health";
import { resources } from "./index";
import { openapiResource } from "./openapi-resource";
import { routeFiles, routeTables } from "@/scripts/api-routes";

/** The one table a lib/api/<area>/routes.ts exports. */
const loadTable = async (file: string) =>
  Object.values((await import(/* @vite-ignore */ path.resolve(file))) as Record<string, unknown>)[0] as Record<
    string,
    LazyResource
  >;

const ZOD_FREE = [
  "lib/api/call.ts",
  "lib/api/errors.ts",
  "lib/api/proxy/call.ts",
  "lib/api/audit/words.ts",
  "lib/api/registry/words.ts",
  "lib/api/platform-keys/words.ts",
  "lib/api/subaccount-keys/words.ts",
  "lib/client/platform.ts",
  "lib/client/sub-accounts.ts",
  "lib/client/sub-account-names.ts",
  "lib/platform/values.ts",
  "components/data-table/ledger-paged-view.tsx",
  "lib/api/admin/password-rule.ts",
  "lib/api/ledger/coverage-words.ts",
  "components/data-table/ledger-coverage.tsx",
  "app/(dashboard)/deposits/_ledger/ledger-view.tsx",
  "app/(dashboard)/deposits/_ledger/deposit-detail.tsx",
  "app/(dashboard)/withdrawals/_components/withdrawals-view.tsx",
  "app/(dashboard)/account/_components/change-password-form.tsx",
  "lib/api/risk-units/words.ts",
  // Two first views that need only constants of their routes' modules, not the schemas beside them.
  "app/(dashboard)/risk-units/_components/risk-units-view.tsx",
  "app/(dashboard)/admin/users/_components/users-admin.tsx",
  // Every area's route table.
  ...readdirSync("lib/api")
    .map((area) => path.join("lib", "api", area, "routes.ts"))
    .filter((file) => existsSync(file)),
];

function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith("@/")
    ? spec.slice(2)
    : spec.startsWith(".")
      ? path.join(path.dirname(from), spec)
      : null;
  if (base === null) return null;
  for (const ext of ["", ".ts", ".tsx", "/index.ts"])
    if (existsSync(base + ext) && /\.tsx?$/.test(base + ext)) return base + ext;
  return null;
}

/** The chain of static imports from `start` to a module that imports zod, or null. */
function zodChain(start: string): string[] | null {
  const parent = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const file = queue.shift()!;
    const src = readFileSync(file, "utf8");
    for (const m of src.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/gm)) {
      if (m[1]) continue;
      const spec = m[2]!;
      if (spec === "zod" || spec.startsWith("zod/")) {
        const chain = [file];
        for (let f = parent.get(file); f; f = parent.get(f)) chain.unshift(f);
        return chain;
      }
      const next = resolve(file, spec);
      if (next && !parent.has(next)) {
        parent.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

describe("[api][page weight] what pages call through loads no zod", () => {
  it.each(ZOD_FREE)("%s reaches no zod through its static imports", (file) => {
    expect(zodChain(file)).toBeNull();
  });

  it("the walk finds zod where it is (an entry module)", () => {
    expect(zodChain("lib/api/audit/index.ts")).toEqual(["lib/api/audit/index.ts"]);
    expect(zodChain("lib/api/registry/index.ts")?.[0]).toBe("lib/api/registry/index.ts");
  });

  it("each lazy route loads the entry it names", async () => {
    const tables = await Promise.all([...(await routeTables()).keys()].map(async (file) => await loadTable(file)));
    const all = tables.flatMap((t) => Object.values(t as Record<string, LazyResource>));
    expect(all.length).toBeGreaterThan(60);
    for (const route of all) {
      const entry = await route.load();
      expect({ id: entry.id, method: entry.method, path: entry.path }).toEqual({
        id: route.id,
        method: route.method,
        path: route.path,
      });
      expect(typeof entry.output.safeParse).toBe("function");
    }
  });
});

describe("[api][route tables] each area's browser table is what npm run api:routes writes", () => {
  it("every lib/api/<area>/routes.ts and routes.json is current (run npm run api:routes after changing an entry)", async () => {
    const files = await routeFiles();
    expect(files.size).toBeGreaterThan(16);
    for (const [file, text] of files) expect(readFileSync(file, "utf8"), file).toBe(text);
  });

  it("every JSON route of Brokerdesk's own is in one table, once", async () => {
    const ids = await Promise.all(
      [...(await routeTables()).keys()].map(async (file) =>
        Object.values((await loadTable(file)) as Record<string, LazyResource>).map((r) => r.id),
      ),
    );
    const json = Object.values(resources)
      .filter((r) => r.reply === "json" && r.id !== healthResource.id && r.id !== openapiResource.id)
      .map((r) => r.id);
    expect(ids.flat().sort()).toEqual(json.sort());
  });
});
