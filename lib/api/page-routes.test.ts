// What keeps every page within 200 KiB: the modules a page calls Brokerdesk's API through load no
// zod, statically, whatever they import; the schemas come with the first call (lazyResource). Walks the static
// imports (not `import()`, not `import type`) from each module below and fails on the first that reaches zod.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pageCalls, PAGE_ROUTES } from "./page-routes";
import { registryCalls, REGISTRY_ROUTES } from "./registry-routes";
import { platformKeyCalls, PLATFORM_KEY_ROUTES } from "./platform-key-routes";

const ZOD_FREE = [
  "lib/api/call.ts",
  "lib/api/errors.ts",
  "lib/api/page-routes.ts",
  "lib/api/registry-routes.ts",
  "lib/api/platform-key-routes.ts",
  "lib/api/proxy-call.ts",
  "lib/client/platform.ts",
  "lib/client/sub-accounts.ts",
  "lib/client/sub-account-names.ts",
  "lib/platform/values.ts",
  "components/data-table/ledger-paged-view.tsx",
  "lib/api/password-rule.ts",
  "lib/api/risk-unit-words.ts",
  // Two first views that need only constants of their routes' modules, not the schemas beside them.
  "app/(dashboard)/risk-units/_components/risk-units-view.tsx",
  "app/(dashboard)/admin/users/_components/users-admin.tsx",
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
    expect(zodChain("lib/api/audit.ts")).toEqual(["lib/api/audit.ts"]);
    expect(zodChain("lib/api/sub-accounts.ts")?.[0]).toBe("lib/api/sub-accounts.ts");
  });

  it("each lazy route loads the entry it names", async () => {
    const all = [
      ...Object.entries(pageCalls).map(([k, c]) => [c, PAGE_ROUTES[k as keyof typeof PAGE_ROUTES]] as const),
      ...Object.entries(registryCalls).map(
        ([k, c]) => [c, REGISTRY_ROUTES[k as keyof typeof REGISTRY_ROUTES]] as const,
      ),
      ...Object.entries(platformKeyCalls).map(
        ([k, c]) => [c, PLATFORM_KEY_ROUTES[k as keyof typeof PLATFORM_KEY_ROUTES]] as const,
      ),
    ];
    expect(all.length).toBeGreaterThan(15);
    for (const [call, route] of all) {
      const entry = await call.load();
      expect({ id: entry.id, method: entry.method, path: entry.path }).toEqual(route);
      expect(typeof entry.output.safeParse).toBe("function");
    }
  });
});
