import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { catalog } from "@/lib/platform/catalog";

const ROOT = path.resolve(__dirname, "../../app/api/platform");

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? routeFiles(p) : name === "route.ts" ? [p] : [];
  });
}

describe("[proxy][routes] app/api/platform mirrors the platform's paths", () => {
  it.each(Object.values(catalog).map((op) => [op.id, op] as const))(
    "%s has a one-line route at its platform path",
    (_id, op) => {
      const file = path.join(ROOT, op.path.replace(/^\/api\//, ""), "route.ts");
      expect(existsSync(file)).toBe(true);
      const code = readFileSync(file, "utf8");
      expect(code).toContain(`export const ${op.method} = platformRoute("${op.id}");`);
      expect(code.split("\n").filter((l) => l.trim()).length).toBeLessThanOrEqual(2);
    },
  );

  it("has no route that is not in the catalog", () => {
    expect(routeFiles(ROOT)).toHaveLength(Object.keys(catalog).length);
  });
});
