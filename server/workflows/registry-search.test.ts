// The registry searched as one types, at 100,000 sub-accounts, on PGlite and (with TEST_DATABASE_URL)
// PostgreSQL: matches by any part of the name, label or UID (the start only under three characters),
// case-insensitive, pages by UID without gaps, nothing typed read as a pattern, and the plan uses the
// trigram and prefix indexes (not a scan of the registry).
import { beforeAll, describe, expect, it } from "vitest";
import { NAMES_MAX, registryNamesSchema, registrySearchSchema } from "@/lib/api/registry";
import type { Db } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { anywhere, browseRegistry, prefixEnd, registryNames, searchRegistry } from "./registry-search";
import { seedRegistry } from "./subaccounts";

const N = 100_000;
const uidOf = (i: number) => String(7_000_000_000 + i);
const nameOf = (i: number) => `user${String(i).padStart(6, "0")}@broker.example`;

describe("[registry][search] prefix ranges", () => {
  it("[registry][search] the end of a prefix's range is the prefix with its last character moved up", () => {
    expect(prefixEnd("desk0")).toBe("desk1");
    expect(prefixEnd("a%")).toBe("a&");
    expect(prefixEnd("7")).toBe("8");
  });
});

describe("[registry][names] input", () => {
  it("[registry][names] refuses what is not a list of 1 to 200 UIDs, on the field", () => {
    for (const uids of [
      "",
      "12,",
      "1;2",
      "abc",
      Array.from({ length: NAMES_MAX + 1 }, (_, i) => String(i + 1)).join(","),
    ]) {
      const r = registryNamesSchema.safeParse({ uids });
      expect(r.success, uids.slice(0, 20)).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual(["uids"]);
    }
    expect(
      registryNamesSchema.parse({ uids: Array.from({ length: NAMES_MAX }, (_, i) => String(i + 1)).join(",") }).uids,
    ).toHaveLength(NAMES_MAX);
  });
});

describe.each(testEngines(process.env.TEST_DATABASE_URL))(
  "[registry][search] at 100,000 sub-accounts on $engine",
  (engine) => {
    const bed = databaseTestBed(engine, {
      async prepare(db) {
        // Through the start-up's own seeding, as SIM_SUBACCOUNTS=100000 would.
        const items = Array.from({ length: N }, (_, i) => ({
          subUid: uidOf(i),
          subaccountName: nameOf(i),
          label: i % 1000 === 0 ? `VIP Desk ${i}` : "",
          status: "normal",
          permList: ["read", "deposit"],
          cTime: "1700000000000",
        }));
        expect(await seedRegistry(db, items)).toBe(N);
        await db.query("ANALYZE subaccounts");
      },
      timeoutMs: 180_000,
    });
    let db: Db;
    beforeAll(() => void ({ db } = bed));
    const search = (input: Record<string, string>) => searchRegistry(db, registrySearchSchema.parse(input));

    it("[registry][names] names exactly the UIDs a table asks for; a UID the registry does not hold is left out", async () => {
      const { uids } = registryNamesSchema.parse({ uids: [uidOf(99_999), uidOf(5), "123", uidOf(5)].join(",") });
      expect(uids).toEqual([uidOf(99_999), uidOf(5), "123"]);
      const { items } = await registryNames(db, uids);
      expect(items).toEqual([
        { subUid: uidOf(5), subaccountName: nameOf(5), label: null, status: "normal" },
        { subUid: uidOf(99_999), subaccountName: nameOf(99_999), label: null, status: "normal" },
      ]);
    });

    it("[registry][search] by the start of the name, case-insensitive; every page by UID, none twice, none missed", async () => {
      // user012300 to user012399: every name starting "USER0123", typed in capitals.
      const expected = Array.from({ length: N }, (_, i) => i)
        .filter((i) => nameOf(i).startsWith("user0123"))
        .map(uidOf);
      expect(expected).toHaveLength(100);
      const seen: string[] = [];
      let page = await search({ q: "USER0123", limit: "30" });
      for (;;) {
        seen.push(...page.items.map((s) => s.subUid));
        if (!page.nextCursor) break;
        page = await search({ q: "USER0123", limit: "30", cursor: page.nextCursor });
      }
      expect(seen).toEqual(expected);
      expect(page.items[0]).toMatchObject({ subaccountName: expect.stringMatching(/^user0123/), status: "normal" });
    });

    it("[registry][search] by the start of a label or a UID; with nothing typed, the first page of all; a LIKE character is only a character", async () => {
      const byLabel = await search({ q: "vip desk 99", limit: "100" });
      expect(byLabel.items.map((s) => s.label)).toEqual(["VIP Desk 99000"]);
      // "700000424": UIDs 7000004240 to 7000004249, the first five of them.
      const byUid = await search({ q: uidOf(4240).slice(0, -1), limit: "5" });
      expect(byUid.items.map((s) => s.subUid)).toEqual([4240, 4241, 4242, 4243, 4244].map(uidOf));
      expect(byUid.nextCursor).not.toBeNull();
      const all = await search({});
      expect(all.items).toHaveLength(20);
      expect(all.items[0]!.subUid).toBe(uidOf(0));
      expect((await search({ q: "user%" })).items).toEqual([]);
      expect((await search({ q: "_ser" })).items).toEqual([]);
    });

    it("[registry][search] by name: pages follow the shown name (then UID), none twice, none missed; the registry page counts every match", async () => {
      const seen: string[] = [];
      let page = await search({ q: "user0124", order: "name", limit: "40" });
      for (;;) {
        seen.push(...page.items.map((s) => s.subaccountName!));
        if (!page.nextCursor) break;
        page = await search({ q: "user0124", order: "name", limit: "40", cursor: page.nextCursor });
      }
      expect(seen).toEqual([...seen].sort());
      expect(new Set(seen).size).toBe(100);
      const browse = await browseRegistry(db, registrySearchSchema.parse({ q: "vip", order: "name", limit: "30" }));
      expect(browse.total).toBe(100);
      expect(browse.rows).toHaveLength(30);
      expect(browse.rows[0]).toMatchObject({
        label: "VIP Desk 0",
        permList: ["read", "deposit"],
        source: "simulator-seed",
      });
      expect((await browseRegistry(db, registrySearchSchema.parse({ status: "freeze" }))).total).toBe(0);
      expect((await browseRegistry(db, registrySearchSchema.parse({}))).total).toBe(N);
      await expect(search({ order: "name", cursor: "not-a-cursor" })).rejects.toMatchObject({ code: "invalid_input" });
    });

    it("[registry][search] the name order walks its index, not a sort of the registry", async () => {
      const { rows } = await db.query<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT sub_uid FROM subaccounts WHERE (lower(coalesce(subaccount_name, label, sub_uid)) COLLATE "C" > $1
         OR (lower(coalesce(subaccount_name, label, sub_uid)) COLLATE "C" = $1 AND sub_uid > $2))
         ORDER BY lower(coalesce(subaccount_name, label, sub_uid)) COLLATE "C", sub_uid LIMIT 21`,
        ["user05", "0"],
      );
      const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(plan).toContain("subaccounts_by_name");
    });

    it("[registry][search] by any part of a name, label or UID: \"000420\" finds user000420, a UID's middle finds it, LIKE's characters are only characters", async () => {
      // Every sub-account whose name or UID holds "000420" (user000420, and UIDs such as 7000042000), by UID.
      const holding = (part: string) =>
        Array.from({ length: N }, (_, i) => i)
          .filter((i) => nameOf(i).includes(part) || uidOf(i).includes(part))
          .map(uidOf);
      const expected = holding("000420");
      expect(expected).toContain(uidOf(420));
      const seen: string[] = [];
      let page = await search({ q: "000420", limit: "40" });
      for (;;) {
        seen.push(...page.items.map((s) => s.subUid));
        if (!page.nextCursor) break;
        page = await search({ q: "000420", limit: "40", cursor: page.nextCursor });
      }
      expect(seen).toEqual(expected);
      const byName = await search({ q: "R0004", limit: "100" });
      expect(byName.items.map((s) => s.subUid)).toEqual(holding("r0004"));
      expect(byName.items).toHaveLength(100);
      // The label's middle ("Desk 99000" of "VIP Desk 99000"), and a UID's end.
      expect((await search({ q: "desk 99000" })).items.map((s) => s.label)).toEqual(["VIP Desk 99000"]);
      expect((await search({ q: uidOf(98_765).slice(3) })).items.map((s) => s.subUid)).toEqual([uidOf(98_765)]);
      expect((await search({ q: "0%2" })).items).toEqual([]);
      expect((await search({ q: "r_0" })).items).toEqual([]);
      expect(anywhere("a%b_c\\")).toBe("%a\\%b\\_c\\\\%");
    });

    it("[registry][search] a part is found through the trigram indexes, not a scan of the registry", async () => {
      const { rows } = await db.query<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT sub_uid FROM subaccounts WHERE (lower(subaccount_name) LIKE $1 OR lower(label) LIKE $1 OR sub_uid LIKE $1)
         ORDER BY sub_uid LIMIT 21`,
        [anywhere("000420")],
      );
      const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(plan).toContain("subaccounts_name_any_part");
      expect(plan).toContain("subaccounts_label_any_part");
      expect(plan).toContain("subaccounts_uid_any_part");
      expect(plan).not.toMatch(/Seq Scan on subaccounts/);
    });

    it("[registry][search] the plan reads the prefix indexes, not every row of the registry", async () => {
      const a = "user0123";
      const { rows } = await db.query<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT sub_uid FROM subaccounts WHERE (lower(subaccount_name) ~>=~ $1 AND lower(subaccount_name) ~<~ $2)
         OR (lower(label) ~>=~ $1 AND lower(label) ~<~ $2) OR (sub_uid ~>=~ $1 AND sub_uid ~<~ $2) ORDER BY sub_uid LIMIT 21`,
        [a, prefixEnd(a)],
      );
      const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(plan).toContain("subaccounts_name_prefix");
      expect(plan).toContain("subaccounts_label_prefix");
      expect(plan).toContain("subaccounts_uid_prefix");
      expect(plan).not.toMatch(/Seq Scan on subaccounts/);
    });
  },
);
