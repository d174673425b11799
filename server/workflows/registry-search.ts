import "server-only";
// The registry searched as one types (pickers and the registry page at 100,000 sub-accounts): sub-accounts
// whose name, label or UID holds what was typed anywhere ("000420" finds client000420), case-insensitive, a
// page at a time by UID or by name. Three characters or more: a LIKE '%part%' on trigram indexes (migration
// 0026), the typed part a parameter with LIKE's own characters escaped. Fewer: the start only, a range on a
// text_pattern_ops index (migration 0012), written as ~>=~ / ~<~ so it is indexed under a generic plan too
// (a trigram index cannot narrow one or two characters). The name order walks its own index (migration
// 0013). Nothing typed reaches the SQL text.
import type { RegistryPage, RegistrySearch, RegistrySearchPage } from "@/lib/api/registry";
import type { Queryable } from "@/server/db";
import { keysetPage, sqlFilters, type CursorCodec } from "@/server/db/keyset";
import { toEntry, type RegistryRow } from "./subaccounts";

const UID = /^\d{1,32}$/;
const uidCodec: CursorCodec<string> = { encode: (uid) => uid, decode: (c) => (UID.test(c) ? c : null) };

/** What a row is sorted by in the name order: the name a picker shows first (name, else label, else UID). */
const NAME_KEY = `lower(coalesce(subaccount_name, label, sub_uid)) COLLATE "C"`;
type NameKey = { name: string; uid: string };
// base64url of JSON, so any character of a name travels in a URL and the cursor stays opaque.
const nameCodec: CursorCodec<NameKey> = {
  encode: (k) => Buffer.from(JSON.stringify([k.name, k.uid])).toString("base64url"),
  decode: (c) => {
    try {
      const v: unknown = JSON.parse(Buffer.from(c, "base64url").toString("utf8"));
      return Array.isArray(v) &&
        v.length === 2 &&
        typeof v[0] === "string" &&
        typeof v[1] === "string" &&
        UID.test(v[1])
        ? { name: v[0], uid: v[1] }
        : null;
    } catch {
      return null;
    }
  },
};

/** The first string after every string that starts with `prefix` (its last character moved up by one). */
export function prefixEnd(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop()!;
  return chars.join("") + String.fromCodePoint(last.codePointAt(0)! + 1);
}

/** The shortest part searched anywhere in a name, label or UID; a shorter one is searched at the start. */
export const ANY_PART_MIN = 3;
/** `part` as a LIKE pattern that matches it anywhere, its %, _ and \ taken as themselves. */
export const anywhere = (part: string) => `%${part.replace(/[\\%_]/g, "\\$&")}%`;

function registryFilters(f: RegistrySearch) {
  const w = sqlFilters();
  const q = f.q?.toLowerCase();
  if (q && [...q].length >= ANY_PART_MIN) {
    w.add((p) => `(lower(subaccount_name) LIKE ${p} OR lower(label) LIKE ${p} OR sub_uid LIKE ${p})`, anywhere(q));
  } else if (q) {
    const params = w.params;
    params.push(q, prefixEnd(q));
    const [a, b] = [`$${params.length - 1}`, `$${params.length}`];
    w.where.push(
      `((lower(subaccount_name) ~>=~ ${a} AND lower(subaccount_name) ~<~ ${b}) OR (lower(label) ~>=~ ${a}
         AND lower(label) ~<~ ${b})` + ` OR (sub_uid ~>=~ ${a} AND sub_uid ~<~ ${b}))`,
    );
  }
  if (f.status) w.add((p) => `status = ${p}`, f.status);
  if (f.source) w.add((p) => `source = ${p}`, f.source);
  return w;
}

type Row = RegistryRow & { name_key: string };
const PAGE_SIZE = { default: 20, max: 100 };

async function page(db: Queryable, f: RegistrySearch, pageSize = PAGE_SIZE) {
  const w = registryFilters(f);
  const select = `SELECT *, ${NAME_KEY} AS name_key FROM subaccounts`;
  if (f.order === "name") {
    return keysetPage<Row, NameKey>(db, {
      select,
      where: w.where,
      params: w.params,
      orderBy: `${NAME_KEY}, sub_uid`,
      olderThan: (k, p) => `(${NAME_KEY} > ${p(k.name)} OR (${NAME_KEY} = ${p(k.name)} AND sub_uid > ${p(k.uid)}))`,
      keyOf: (r) => ({ name: r.name_key, uid: r.sub_uid }),
      codec: nameCodec,
      cursor: f.cursor,
      limit: f.limit,
      pageSize,
    });
  }
  return keysetPage<Row, string>(db, {
    select,
    where: w.where,
    params: w.params,
    orderBy: "sub_uid",
    // Ascending by UID: "older" here is the next UID up.
    olderThan: (uid, p) => `sub_uid > ${p(uid)}`,
    keyOf: (r) => r.sub_uid,
    codec: uidCodec,
    cursor: f.cursor,
    limit: f.limit,
    pageSize,
  });
}

/** A picker's page: what it shows of each match, and whether more match. */
export async function searchRegistry(db: Queryable, f: RegistrySearch): Promise<RegistrySearchPage> {
  const p = await page(db, f);
  return {
    items: p.items.map((r) => ({
      subUid: r.sub_uid,
      subaccountName: r.subaccount_name,
      label: r.label,
      status: r.status,
    })),
    nextCursor: p.nextCursor,
  };
}

/** The registry page's page: whole entries and the exact count of every match (same filters, same indexes). */
export async function browseRegistry(db: Queryable, f: RegistrySearch): Promise<RegistryPage> {
  const w = registryFilters(f);
  const [p, counted] = await Promise.all([
    page(db, f),
    db.query<{ n: string | number }>(
      `SELECT count(*) AS n FROM subaccounts ${w.where.length ? `WHERE ${w.where.join(" AND ")}` : ""}`,
      w.params,
    ),
  ]);
  return { rows: p.items.map(toEntry), nextCursor: p.nextCursor, total: Number(counted.rows[0]?.n ?? 0) };
}

/** The registry's entries among `uids` (what a table names beside the UIDs it shows), by UID. */
export async function registryNames(db: Queryable, uids: readonly string[]) {
  const { rows } = await db.query<{
    sub_uid: string;
    subaccount_name: string | null;
    label: string | null;
    status: string;
  }>(
    "SELECT sub_uid, subaccount_name, label, status FROM subaccounts WHERE sub_uid = ANY($1::text[]) ORDER BY sub_uid",
    [uids],
  );
  return {
    items: rows.map((r) => ({
      subUid: r.sub_uid,
      subaccountName: r.subaccount_name,
      label: r.label,
      status: r.status,
    })),
  };
}
