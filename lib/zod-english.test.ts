// zod/mini answers "Invalid input" unless its locale is set (lib/zod-english.ts). The locale is global, set when
// that module loads, so every module that builds a schema loads it itself: a page that loads one schema module
// lazily (page weight) still says what a field needs, and no module relies on another having done so.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["lib", "app", "components", "server"];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === "node_modules" ? [] : sources(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

describe("[zod][locale] English messages", () => {
  it("every module that builds schemas with zod/mini loads lib/zod-english itself", () => {
    const builders = ROOTS.flatMap(sources).filter((f) =>
      /^import (\* as z|\{[^}]*\}) from "zod\/mini";$/m.test(readFileSync(f, "utf8")),
    );
    expect(builders.length).toBeGreaterThan(20);
    const without = builders.filter(
      (f) =>
        f !== path.join("lib", "zod-english.ts") && !readFileSync(f, "utf8").includes('import "@/lib/zod-english";'),
    );
    expect(without).toEqual([]);
  });
});
