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

/** The modules a file imports (static, dynamic and re-exports), as written. */
function importsOf(rel: string): string[] {
  const code = read(rel);
  return [...code.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g)].map((m) => m[1]!);
}
/** Files under `dir` importing a module under any of `targets` (by the "@/" alias or a relative path). */
function importing(dir: string, targets: string[]): string[] {
  return sources(dir).flatMap((f) =>
    importsOf(f)
      .map((spec) =>
        spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.join(path.dirname(f), spec) : null,
      )
      .filter(
        (target): target is string =>
          target !== null && targets.some((t) => target === t || target.startsWith(`${t}/`)),
      )
      .map((target) => `${f} → ${target}`),
  );
}

// The front door (npm start) runs in plain Node before Next.js: "server-only" throws outside the
// react-server condition. It is the one exception to the rule below.
const FRONT_DOOR = path.join("server", "front-door.mjs");

describe("[architecture]", () => {
  it("every server/ source file imports server-only first", () => {
    const missing = sources("server")
      .filter((f) => f !== FRONT_DOOR)
      .filter((f) => {
        const firstCode = read(f)
          .split("\n")
          .find((l) => l.trim() && !l.trim().startsWith("//"));
        return firstCode?.trim() !== 'import "server-only";';
      });
    expect(missing).toEqual([]);
  });

  it("every form is components/ui/form-element.tsx's Form, which posts and handles its own submit", () => {
    // The browser submits a form itself when Enter comes before React has hydrated the page; a GET would put
    // its fields (a password, an address, an amount) into the address, history and access logs. A POST to a
    // page only draws the page again. e2e/auth.ui.spec.ts holds the scripts back and shows it.
    const FORM = path.join("components", "ui", "form-element.tsx");
    const files = ["app", "components"].flatMap(sources);
    expect(files.filter((f) => /<Form\b/.test(read(f))).length).toBeGreaterThan(12);
    expect(read(FORM)).toMatch(/method="post"/);
    expect(files.filter((f) => f !== FORM && /<form\b/.test(read(f)))).toEqual([]);
  });

  it("process.env is read in lib/env.js only", () => {
    const readers = ["app", "components", "lib", "server"].flatMap(sources).filter((f) => /process\.env/.test(read(f)));
    expect(readers).toEqual([path.join("lib", "env.js")]);
  });

  it("no file outside the catalog writes a platform path, and only server/platform signs", () => {
    // The one other HMAC: recovery codes and factor proofs are stored as HMACs, not signed requests.
    const MFA_HASHES = path.join("server", "auth", "mfa", "crypto.ts");
    const offenders = ["app", "components", "lib", "server"]
      .flatMap(sources)
      .filter((f) => !f.startsWith(path.join("lib", "platform")) && !f.startsWith(path.join("server", "simulator")))
      .filter(
        (f) =>
          /["'`]\/api\/v2\//.test(read(f)) ||
          (/\b(createHmac|createSign)\(/.test(read(f)) &&
            !f.startsWith(path.join("server", "platform")) &&
            f !== MFA_HASHES),
      );
    expect(offenders).toEqual([]);
  });

  it("browser code never imports server code or the env module", () => {
    const client = ["app", "components"].flatMap(sources).filter((f) => /^["']use client["']/m.test(read(f)));
    const bad = client.filter((f) => /from ["']@\/(server|lib\/env)/.test(read(f)));
    expect(bad).toEqual([]);
  });

  it("the simulator never imports the client, and the client never imports (or starts) the simulator", () => {
    expect(importing("server/simulator", ["server/platform"])).toEqual([]);
    expect(importing("server/platform", ["server/simulator"])).toEqual([]);
  });

  it("lib/ is isomorphic: it imports nothing from server/", () => {
    expect(importing("lib", ["server"])).toEqual([]);
  });

  it("dependencies point down: Routes → Http → Workflows → {Client, Db, Audit}", () => {
    // Nothing below the HTTP layer builds responses or knows the routes; nothing below the workflows runs them.
    const below = [
      "server/workflows",
      "server/audit",
      "server/db",
      "server/platform",
      "server/auth",
      "server/simulator",
      "lib",
    ];
    expect(below.flatMap((d) => importing(d, ["server/http", "app"]))).toEqual([]);
    expect(
      ["server/audit", "server/db", "server/platform", "server/simulator", "lib"].flatMap((d) =>
        importing(d, ["server/workflows", "server/startup"]),
      ),
    ).toEqual([]);
  });

  it("routes and pages never start the simulator or seed data: only the start-up module does", () => {
    const starters = ["app", "components", "server/http", "server/workflows"].flatMap((d) =>
      importing(d, ["server/simulator", "server/startup"]),
    );
    expect(starters).toEqual([]);
    const seeders = ["app", "server/http"]
      .flatMap(sources)
      .filter((f) => /\b(prepareStaffUsers|seedDemoUsers|seedRegistry|seedDemoRules)\b/.test(read(f)));
    expect(seeders).toEqual([]);
  });

  it("files say one thing: no formatted source file over 400 lines, and a page file names its view and its gate in 30 or fewer", () => {
    const lines = (f: string) => read(f).split("\n").length - (read(f).endsWith("\n") ? 1 : 0);
    const long = ["app", "components", "lib", "server", "scripts", "e2e/support"]
      .flatMap(sources)
      .filter((f) => !/\.spec\.ts$/.test(f) && lines(f) > 400);
    expect(long.map((f) => `${f}: ${lines(f)} lines`)).toEqual([]);
    const pages = sources("app").filter((f) => path.basename(f) === "page.tsx");
    expect(pages.length).toBeGreaterThan(15);
    expect(pages.filter((f) => lines(f) > 30).map((f) => `${f}: ${lines(f)} lines`)).toEqual([]);
  });
});

/** Every module a file imports, type-only ones too (a circle of types is still a circle to read), resolved. */
function importGraph(dirs: string[]): Map<string, string[]> {
  const files = dirs.flatMap(sources);
  const known = new Set(files);
  const resolve = (from: string, spec: string): string | null => {
    // "@/x" is the repository's x; "./x" and "../x" are beside the file; anything else is a package.
    if (!spec.startsWith("@/") && !spec.startsWith(".")) return null;
    const base = spec.startsWith("@/") ? spec.slice(2) : path.join(path.dirname(from), spec);
    const candidates = ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts", "/index.tsx", "/index.js"].map((x) => base + x);
    return candidates.find((c) => known.has(c)) ?? null;
  };
  return new Map(files.map((f) => [f, [...new Set(importsOf(f).flatMap((spec) => resolve(f, spec) ?? []))]] as const));
}

/** The import circles of a graph: its strongly connected components of more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("[architecture][imports] the import graph", () => {
  const graph = importGraph(["app", "components", "lib", "server", "scripts", "e2e"]);
  const edges = (from: string, to: string[]) =>
    [...graph]
      .filter(([f]) => f.startsWith(`${from}/`) && !/\.(test|spec)\.tsx?$/.test(f))
      .flatMap(([f, targets]) =>
        targets.filter((t) => to.some((d) => t.startsWith(`${d}/`))).map((t) => `${f} → ${t}`),
      );

  it("has no import circle anywhere (lib/ and server/ included), type-only and dynamic imports counted", () => {
    expect(circles(graph)).toEqual([]);
  });

  it("finds a circle where there is one (the check above can fail)", () => {
    const made = new Map([
      ["lib/a.ts", ["lib/b.ts"]],
      ["lib/b.ts", ["lib/c.ts"]],
      ["lib/c.ts", ["lib/a.ts"]],
      ["lib/d.ts", ["lib/a.ts"]],
    ]);
    expect(circles(made)).toEqual([["lib/a.ts", "lib/b.ts", "lib/c.ts"]]);
  });

  it("browser code calls Brokerdesk's routes one way: through lib/api/<area>/routes.ts, never an entry", () => {
    // An entry (`…Resources`, `…Resource`) brings zod and every schema of its module into the page; the area's
    // route table loads the entry with the first call. Route handlers (app/api) import entries, as they must; so
    // does the export stream's reader, which parses each NDJSON event with the entry's schema and loads on a click.
    const READS_A_STREAM = path.join("lib", "client", "export-client.ts");
    const browser = ["app", "components", path.join("lib", "client")]
      .flatMap(sources)
      .filter((f) => !f.startsWith(path.join("app", "api") + path.sep));
    const entryImports = browser
      .filter((f) => f !== READS_A_STREAM)
      .flatMap((f) =>
        [...read(f).matchAll(/^import\s+\{([^}]*)\}\s+from\s+["']@\/lib\/api\/[^"']+["']/gm)]
          .flatMap((m) => m[1]!.split(","))
          .map((name) => name.trim())
          .map((name) => name.split(/\s+as\s+/)[0]!)
          .filter((name) => /^\w+Resources?$/.test(name) && name !== "callResource" && name !== "lazyResource")
          .map((name) => `${f}: ${name}`),
      );
    expect(entryImports).toEqual([]);
  });

  it("server/ imports neither e2e/, components/ nor app/: the page gate answers data, app/ draws the frame", () => {
    expect(edges("server", ["e2e", "components", "app"])).toEqual([]);
  });

  it("pages read through server modules, never the database itself (routes get it from apiRoute)", () => {
    const pages = edges("app", [path.join("server", "db")]).filter((e) => !e.startsWith(path.join("app", "api")));
    expect(pages).toEqual([]);
    expect(edges("components", [path.join("server", "db")])).toEqual([]);
  });

  it('pages take the page gate from app/\'s page-gate, which draws the frame or the one "not allowed" page', () => {
    const gate = path.join("app", "(dashboard)", "_components", "page-gate.tsx");
    const gatePath = path.join("server", "http", "page.ts");
    const direct = [...graph]
      .filter(([f, targets]) => f.startsWith(`app${path.sep}`) && f !== gate && targets.includes(gatePath))
      .map(([f]) => f);
    expect(direct).toEqual([]);
  });

  it("the CSV row types and the UI primitives sit below what uses them", () => {
    expect(edges(path.join("server", "ledger"), [path.join("server", "http")])).toEqual([]);
    expect(edges(path.join("components", "ui"), [path.join("components", "data-table")])).toEqual([]);
  });
});
