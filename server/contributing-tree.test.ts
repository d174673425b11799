// CONTRIBUTING.md draws the layout as a tree; this keeps the drawing and the repository in step, so a new
// folder is explained where a newcomer looks, and a folder that goes away leaves the drawing too.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const MARK = "The layout, drawn as a tree";
/** The folders whose every sub-folder the tree must name. */
const COVERED = ["app", "components", "lib", "server", "e2e", "scripts", "docs"];
/** Where a description continues on the next line: deeper than any name's indent. */
const CONTINUATION_INDENT = 20;

/** The paths the tree names (placeholders such as <page> kept as written), from its indentation. */
function treePaths(markdown: string): string[] {
  const after = markdown.slice(markdown.indexOf(MARK));
  const block = after.slice(after.indexOf("```\n") + 4, after.indexOf("\n```", after.indexOf("```\n") + 4));
  const stack: string[] = [];
  const paths: string[] = [];
  for (const line of block.split("\n")) {
    const indent = line.length - line.trimStart().length;
    const name = line.trim().split(/\s+/)[0];
    if (!name || indent >= CONTINUATION_INDENT) continue;
    const depth = indent / 2;
    stack.length = depth;
    const full = [...stack, name].join("");
    paths.push(full.replace(/\/$/, ""));
    if (name.endsWith("/")) stack.push(name);
  }
  return paths;
}

const subfolders = (dir: string) =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => `${dir}/${e.name}`);

describe("[docs][layout] CONTRIBUTING's tree", () => {
  const paths = treePaths(readFileSync(path.join(ROOT, "CONTRIBUTING.md"), "utf8"));

  it("reads the tree: nested names join their parents' paths", () => {
    expect(paths).toContain("app/(dashboard)/<page>/page.tsx");
    expect(paths).toContain("server/ledger");
    expect(paths.length).toBeGreaterThan(30);
  });

  it("names only what exists", () => {
    const concrete = paths.filter((p) => !/[<*]/.test(p));
    expect(concrete.filter((p) => !existsSync(path.join(ROOT, p)))).toEqual([]);
  });

  it("names every folder one level below the top-level code folders", () => {
    const named = new Set(paths);
    expect(COVERED.flatMap(subfolders).filter((d) => !named.has(d))).toEqual([]);
  });
});
