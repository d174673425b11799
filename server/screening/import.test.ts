import "server-only";
// Imports against a real database (PGlite, and PostgreSQL with TEST_DATABASE_URL): versions with their hash,
// date, counts and importer; the lookup on the address alone; a file that fails changes nothing; which version
// was active at a past time; every import in the audit chain.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import {
  activeVersions,
  confirmVersion,
  importList,
  importListAudited,
  ListParseError,
  ListTooLargeError,
  listVersions,
  screenAddress,
} from "./index";
import { fixture, SANCTIONED_SOURCE } from "./testing";

/** A text as a stream of small byte chunks (a multi-byte character may be cut between two). */
async function* chunks(text: string, size = 1000): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, "utf8");
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const ETH_CHECKSUM = "0xe93a50A9D2Bf14531D618E25A5fE925ebb8E0E2E";

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[screening][import] on $engine", (engine) => {
  const t = databaseTestBed(engine);
  const counts = async () => {
    const { rows } = await t.db.query<{ v: number; e: number }>(
      `SELECT (SELECT count(*)::int FROM screening_list_versions) AS v,
              (SELECT count(*)::int FROM screening_list_entries) AS e`,
    );
    return rows[0]!;
  };

  it("[screening][import] an SDN import is a version (hash, date, counts, importer); its addresses match", async () => {
    const text = fixture("sdn-advanced.xml");
    const v = await importList(t.db, chunks(text, 333), { importedBy: "compliance@test", fileName: "sdn.xml" });
    expect(v).toMatchObject({
      list: "ofac-sdn",
      format: "sdn",
      sha256: sha(text),
      fileName: "sdn.xml",
      publishedAt: "2026-11-27T00:00:00.000Z",
      counts: { XBT: 2, ETH: 1, USDT: 1, TRX: 1 },
      addressCount: 5,
      importedBy: "compliance@test",
      active: true,
    });
    const hit = await screenAddress(t.db, SANCTIONED_SOURCE);
    expect(hit.match).toBe(true);
    expect(hit.versions).toEqual([{ list: "ofac-sdn", versionId: v.id, sha256: v.sha256, publishedAt: v.publishedAt }]);
    expect(hit.matches.map((m) => [m.asset, m.partyName, m.partyRef, m.reason])).toEqual([
      ["USDT", "NORTHWIND EXCHANGE OU", "91001", "OFAC SDN"],
      ["TRX", "NORTHWIND EXCHANGE OU", "91001", "OFAC SDN"],
    ]);
    // EVM in any case, bech32 in upper case: the same address. Base58 in another case is another address.
    for (const a of [ETH_CHECKSUM.toLowerCase(), ETH_CHECKSUM.toUpperCase().replace("0X", "0x"), ETH_CHECKSUM])
      expect((await screenAddress(t.db, a)).matches.map((m) => m.listedAs)).toEqual([ETH_CHECKSUM]);
    expect((await screenAddress(t.db, "BC1Q9RGXV6QAPUQ8TZPT80JR0T9FNQQDCZQX0420TU")).match).toBe(true);
    expect((await screenAddress(t.db, SANCTIONED_SOURCE.toLowerCase())).match).toBe(false);
    const miss = await screenAddress(t.db, "TWYLe5Jr25gFzTDhXLupQpCo5SgJQ1CeKz");
    expect([miss.match, miss.matches, miss.versions.map((x) => x.versionId)]).toEqual([false, [], [v.id]]);
  });

  it("[screening][import] the legacy namespace imports the same addresses", async () => {
    const current = (await activeVersions(t.db)).find((v) => v.list === "ofac-sdn")!;
    const legacy = await importList(t.db, chunks(fixture("sdn-advanced-legacy.xml")), {
      importedBy: "compliance@test",
      list: "ofac-sdn-legacy",
    });
    const { rows } = await t.db.query<{ version_id: string; address: string; asset: string }>(
      `SELECT version_id, address, asset FROM screening_list_entries WHERE version_id IN ($1, $2) ORDER BY ordinal`,
      [current.id, legacy.id],
    );
    const of = (id: number) => rows.filter((r) => Number(r.version_id) === id).map((r) => [r.address, r.asset]);
    expect(of(legacy.id)).toEqual(of(current.id));
    expect(of(legacy.id)).toHaveLength(5);
    expect(legacy.sha256).not.toBe(current.sha256);
  });

  it("[screening][import] a truncated, malformed or oversized file changes nothing and says where", async () => {
    const before = await counts();
    const active = await activeVersions(t.db);
    const text = fixture("sdn-advanced.xml");
    const cut = text.slice(0, Math.floor(text.length * 0.8));
    const truncated = await importList(t.db, chunks(cut, 100), { importedBy: "c@test" }).catch((e: unknown) => e);
    expect(truncated).toBeInstanceOf(ListParseError);
    expect((truncated as ListParseError).where.line).toBe(cut.split("\n").length);
    const malformed = await importList(t.db, chunks(text.replace("</Feature>", "</Featur>")), {
      importedBy: "c@test",
    }).catch((e: unknown) => e);
    const line = text.split("\n").findIndex((l) => l.includes("</Feature>")) + 1;
    expect((malformed as ListParseError).message).toMatch(
      new RegExp(`^line ${line}, column 17, in .*Profile: unexpected close`),
    );
    const csv = await importList(t.db, chunks("address,chain,reason\nT1,TRC20,x\nT2,,y\n"), {
      importedBy: "c@test",
    }).catch((e: unknown) => e);
    expect((csv as ListParseError).message).toBe(
      "line 3: the chain or asset is empty or not a symbol (A–Z, 0–9, . _ -)",
    );
    const big = await importList(t.db, chunks(text, 1000), { importedBy: "c@test", maxBytes: 4000 }).catch((e) => e);
    expect(big).toBeInstanceOf(ListTooLargeError);
    const empty = await importList(t.db, chunks("address,chain,reason\n"), { importedBy: "c@test" }).catch((e) => e);
    expect((empty as Error).message).toMatch(/lists no address/);
    const notUtf8 = await importList(t.db, [Buffer.from("address,chain,reason\n\xff\xfe,TRC20,x\n", "latin1")], {
      importedBy: "c@test",
    }).catch((e: unknown) => e);
    expect((notUtf8 as ListParseError).message).toBe("byte 0: the file is not UTF-8 text");
    expect(await counts()).toEqual(before);
    expect(await activeVersions(t.db)).toEqual(active);
  });

  it("[screening][import] many batches import whole; a file failing on its last line leaves nothing", async () => {
    const before = await counts();
    const lines = Array.from({ length: 12_345 }, (_, i) => `0x${i.toString(16).padStart(40, "0")},ERC20,batch ${i}`);
    const csv = `address,chain,reason\n${lines.join("\n")}\n`;
    const bad = await importList(t.db, chunks(`${csv}0xdead,,no chain\n`, 4096), { importedBy: "c@test", list: "many" })
      .then(() => null)
      .catch((e: unknown) => e);
    expect((bad as ListParseError).where.line).toBe(12_347);
    expect(await counts()).toEqual(before);
    const v = await importList(t.db, chunks(csv, 4096), { importedBy: "c@test", list: "many" });
    expect([v.addressCount, v.counts]).toEqual([12_345, { ERC20: 12_345 }]);
    const { rows } = await t.db.query<{ n: number; o: number }>(
      `SELECT count(DISTINCT address)::int AS n, max(ordinal)::int AS o
         FROM screening_list_entries WHERE version_id = $1`,
      [v.id],
    );
    expect(rows[0]).toEqual({ n: 12_345, o: 12_344 });
    expect((await screenAddress(t.db, `0x${(12_344).toString(16).padStart(40, "0")}`)).matches[0]?.reason).toBe(
      "batch 12344",
    );
  });

  it("[screening][import] CSV and FtM lists are lists of their own; a lookup answers every active one", async () => {
    const csv = await importList(t.db, chunks(fixture("own-blocklist.csv")), {
      importedBy: "compliance@test",
      publishedAt: new Date("2026-12-01T00:00:00Z"),
    });
    expect([csv.list, csv.format, csv.counts, csv.publishedAt]).toEqual([
      "own-blocklist",
      "csv",
      { TRC20: 1, ERC20: 1, BTC: 1 },
      "2026-12-01T00:00:00.000Z",
    ]);
    const ftm = await importList(t.db, chunks(fixture("opensanctions-wallets.ftm.jsonl"), 64), {
      importedBy: "compliance@test",
    });
    expect([ftm.list, ftm.format, ftm.counts]).toEqual(["opensanctions", "ftm", { USDT: 1, XBT: 1, UNKNOWN: 1 }]);
    const eth = await screenAddress(t.db, ETH_CHECKSUM.toLowerCase());
    expect(eth.versions.map((v) => v.list)).toEqual([
      "many",
      "ofac-sdn",
      "ofac-sdn-legacy",
      "opensanctions",
      "own-blocklist",
    ]);
    expect(eth.matches.map((m) => [m.list, m.asset])).toEqual([
      ["ofac-sdn", "ETH"],
      ["ofac-sdn-legacy", "ETH"],
      ["opensanctions", "UNKNOWN"],
      ["own-blocklist", "ERC20"],
    ]);
  });

  it("[screening][import] a version that keeps every address but drops party names waits for a second person", async () => {
    const v1 = await importList(t.db, chunks(fixture("sdn-advanced.xml")), { importedBy: "a@test", list: "parties" });
    const { rows } = await t.db.query<{ listed_as: string; asset: string }>(
      `SELECT DISTINCT listed_as, asset FROM screening_list_entries WHERE version_id = $1`,
      [v1.id],
    );
    // The same addresses re-imported as a CSV, which names no party: the Travel Rule's name screening against this
    // list would go quiet, a control turned down by one person unless a second one confirms.
    const csv = `address,chain,reason\n${rows.map((r) => `${r.listed_as},${r.asset},re-import`).join("\n")}\n`;
    const v2 = await importList(t.db, chunks(csv), { importedBy: "a@test", list: "parties", format: "csv" });
    expect(v2.state).toBe("waiting");
    expect(v2.removedCount).toBeGreaterThan(0);
    expect(v2.activatedAt).toBeNull();
  });

  it("[screening][import] every version stays readable: which one was active at a past time", async () => {
    const text = fixture("sdn-advanced.xml");
    const v1 = await importList(t.db, chunks(text), { importedBy: "a@test", list: "history" });
    const between = new Date(Date.parse(v1.activatedAt!) + 1);
    await new Promise((r) => setTimeout(r, 5));
    // The next version no longer lists the sanctioned source.
    const v2 = await importList(
      t.db,
      chunks(text.replaceAll(SANCTIONED_SOURCE, "TPkxW5oEBD3YRuVN3hRLnyyAGfHmjVxKzt")),
      {
        importedBy: "b@test",
        list: "history",
      },
    );
    // It drops an address the active version lists: it waits for a second person, and no lookup uses it meanwhile.
    expect([v2.state, v2.activatedAt, v2.removedCount]).toEqual(["waiting", null, 1]);
    expect((await screenAddress(t.db, SANCTIONED_SOURCE)).matches.some((m) => m.list === "history")).toBe(true);
    await confirmVersion(t.db, v2.id, "c@test");
    const history = (r: Awaited<ReturnType<typeof screenAddress>>) => ({
      version: r.versions.find((v) => v.list === "history")?.versionId ?? null,
      match: r.matches.some((m) => m.list === "history"),
    });
    expect(history(await screenAddress(t.db, SANCTIONED_SOURCE, between))).toEqual({ version: v1.id, match: true });
    expect(history(await screenAddress(t.db, SANCTIONED_SOURCE))).toEqual({ version: v2.id, match: false });
    expect(history(await screenAddress(t.db, SANCTIONED_SOURCE, new Date(Date.parse(v1.activatedAt!) - 1)))).toEqual({
      version: null,
      match: false,
    });
    expect((await activeVersions(t.db, between)).find((v) => v.list === "history")?.id).toBe(v1.id);
    const all = (await listVersions(t.db)).filter((v) => v.list === "history");
    expect(all.map((v) => [v.id, v.active, v.importedBy])).toEqual([
      [v2.id, true, "b@test"],
      [v1.id, false, "a@test"],
    ]);
  });

  it("[screening][import] an import through the audit module leaves its intent and outcome in the chain", async () => {
    const v = await importListAudited(
      t.db,
      chunks(fixture("own-blocklist.csv")),
      { importedBy: "cli:ops", fileName: "own.csv", list: "audited" },
      {},
    );
    const failed = await importListAudited(
      t.db,
      chunks("address,chain,reason\n,ERC20,x\n"),
      { importedBy: "cli:ops", list: "audited" },
      {},
    ).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ListParseError);
    const { rows } = await t.db.query<{ id: string; outcome: string; intent_id: string | null; detail: unknown }>(
      `SELECT id, outcome, intent_id, detail FROM audit_log WHERE action = 'screening.list-import' ORDER BY id`,
    );
    expect(rows.map((r) => r.outcome)).toEqual(["intent", "success", "intent", "failure"]);
    expect(Number(rows[1]!.intent_id)).toBe(v.auditIntentId);
    expect(JSON.stringify(rows[1]!.detail)).toContain(v.sha256);
    expect(JSON.stringify(rows[3]!.detail)).toContain("line 2: the address is empty");
  });
});
