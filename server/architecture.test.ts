// Fences the architecture relies on (STYLE rules 1, 2 and 13), checked over the source tree.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return sources(rel);
    return /\.(ts|tsx|js|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [rel] : [];
  });
}
const read = (rel: string) => readFileSync(path.join(ROOT, rel), "utf8");

describe("[architecture]", () => {
  it("every server/ source file imports server-only first", () => {
    const missing = sources("server").filter((f) => {
      const firstCode = read(f).split("\n").find((l) => l.trim() && !l.trim().startsWith("//"));
      return firstCode?.trim() !== 'import "server-only";';
    });
    expect(missing).toEqual([]);
  });

  it("process.env is read in lib/env.js only", () => {
    const readers = ["app", "components", "lib", "server"].flatMap(sources).filter((f) => /process\.env/.test(read(f)));
    expect(readers).toEqual([path.join("lib", "env.js")]);
  });

  it("no file outside the catalog writes a platform path, and only server/platform signs", () => {
    const offenders = ["app", "components", "lib", "server"]
      .flatMap(sources)
      .filter((f) => !f.startsWith(path.join("lib", "platform")) && !f.startsWith(path.join("server", "simulator")))
      .filter((f) => /["'`]\/api\/v2\//.test(read(f)) || (/\b(createHmac|createSign)\(/.test(read(f)) && !f.startsWith(path.join("server", "platform"))));
    expect(offenders).toEqual([]);
  });

  it("browser code never imports server code or the env module", () => {
    const client = ["app", "components"].flatMap(sources).filter((f) => /^["']use client["']/m.test(read(f)));
    const bad = client.filter((f) => /from ["']@\/(server|lib\/env)/.test(read(f)));
    expect(bad).toEqual([]);
  });
});
