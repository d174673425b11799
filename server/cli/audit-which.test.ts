// `npm run audit:which -- <file>` run as a person would, as its own process on an embedded database folder: a
// case report exported there is found (exit 0, the entry said); a copy with one byte changed is not (exit 1).
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "@/server/db";
import { caseReport } from "@/server/monitoring/report";
import { staffSession } from "@/server/testing";

const run = (file: string, dataDir: string) =>
  new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" };
    delete env.DATABASE_URL;
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "server/cli/audit-which.ts", "--", file],
      { env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });

describe("[audit][evidence] npm run audit:which", () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it("[audit][evidence] names the entry that exported a file, and says plainly when none did", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "bd-which-"));
    dirs.push(dir);
    // DATA_DIR holds the embedded database in its pglite sub-folder (server/db getDb).
    const dataDir = path.join(dir, "data");
    const db = await openDb({ dataDir: path.join(dataDir, "pglite") });
    let file: string;
    let changed: string;
    try {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO monitoring_cases (sub_uid) VALUES ('77') RETURNING id::text`,
      );
      const report = await caseReport(db, staffSession("compliance", "carol"), rows[0]!.id, {});
      file = path.join(dir, report.name);
      await writeFile(file, report.bytes);
      const copy = new Uint8Array(report.bytes);
      copy[10] = copy[10] === 0x20 ? 0x21 : 0x20;
      changed = path.join(dir, "changed.html");
      await writeFile(changed, copy);
    } finally {
      await db.close();
    }
    // One process per embedded folder: the two runs go one after the other.
    const found = await run(file, dataDir);
    expect(found.out).toMatch(/found: exported by this entry/);
    expect(found.out).toMatch(/actor: {3}carol@brokerdesk\.test \(compliance\)/);
    expect(found.out).toMatch(/action: {2}monitoring\.case-report on case:/);
    expect(found.out).toMatch(/time: {4}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(found.code).toBe(0);
    const notFound = await run(changed, dataDir);
    expect(notFound.out).toMatch(/NOT FOUND: no audit entry recorded this file/);
    expect(notFound.code).toBe(1);
  }, 180_000);
});
