import "server-only";
// The registry searched as one types (issue 14: pickers at 100,000 sub-accounts): sub-accounts whose name,
// label or UID starts with what was typed, case-insensitive, a page at a time by UID. Each test is a range on
// a text_pattern_ops index (migration 0012), written as ~>=~ / ~<~ so it is indexed under a generic plan too,
// and nothing typed reaches the SQL text or a LIKE pattern.
import type { RegistrySearch, RegistrySearchPage } from "@/lib/api/sub-accounts";
import type { Queryable } from "@/server/db";
import { keysetPage, sqlFilters, type CursorCodec } from "@/server/db/keyset";

const codec: CursorCodec<string> = { encode: (uid) => uid, decode: (c) => (/^\d{1,32}$/.test(c) ? c : null) };

/** The first string after every string that starts with `prefix` (its last character moved up by one). */
export function prefixEnd(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop()!;
  return chars.join("") + String.fromCodePoint(last.codePointAt(0)! + 1);
}

type Row = { sub_uid: string; subaccount_name: string | null; label: string | null; status: string };

export async function searchRegistry(db: Queryable, f: RegistrySearch): Promise<RegistrySearchPage> {
  const w = sqlFilters();
  const q = f.q?.toLowerCase();
  if (q) {
    const params = w.params;
    params.push(q, prefixEnd(q));
    const [a, b] = [`$${params.length - 1}`, `$${params.length}`];
    w.where.push(
      `((lower(subaccount_name) ~>=~ ${a} AND lower(subaccount_name) ~<~ ${b}) OR (lower(label) ~>=~ ${a} AND lower(label) ~<~ ${b})` +
        ` OR (sub_uid ~>=~ ${a} AND sub_uid ~<~ ${b}))`,
    );
  }
  const page = await keysetPage<Row, string>(db, {
    select: `SELECT sub_uid, subaccount_name, label, status FROM subaccounts`,
    where: w.where, params: w.params,
    orderBy: "sub_uid",
    // Ascending by UID: "older" here is the next UID up.
    olderThan: (uid, p) => `sub_uid > ${p(uid)}`,
    keyOf: (r) => r.sub_uid,
    codec, cursor: f.cursor, limit: f.limit, pageSize: { default: 20, max: 100 },
  });
  return {
    items: page.items.map((r) => ({ subUid: r.sub_uid, subaccountName: r.subaccount_name, label: r.label, status: r.status })),
    nextCursor: page.nextCursor,
  };
}
