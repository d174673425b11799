import "server-only";
// Travel Rule name screening: the names a withdrawal request's IVMS101 data carries, matched against the party
// names of the active version of every list (migration 0120), exactly as written or by their key
// (lib/name-key.ts: accents, case, punctuation and the order of the words ignored). No fuzzy matching. The same
// statement serves the system rule that raises the alert (server/monitoring/kinds/sanctioned-name.ts) and the
// withdrawal's page, so what the page says is what holds the request.
import { nameKey } from "@/lib/name-key";
import type { Queryable } from "@/server/db";
import { ACTIVE_LIST_VERSIONS } from "@/server/monitoring/kinds/sanctioned-address";

/** One name a request's Travel Rule data carries. */
export type ScreenedName = {
  role: "originator" | "beneficiary" | "beneficiaryVASP";
  /** As the page shows it: a natural person's "primary, secondary", a legal person's name. */
  name: string;
  /** The spellings a list may write it in exactly: a natural person's name in either order, with or without comma. */
  spellings: string[];
};

export type NameMatch = {
  role: ScreenedName["role"];
  name: string;
  partyName: string;
  list: string;
  versionId: number;
  match: "exact" | "normalised";
};

/**
 * The matches of open or any requests' names (`requests`: a SELECT of `id` uuid, `sub_uid`) against the active
 * versions' parties: one row per (request, name, party, version), exact where a spelling is the party's name as
 * the list writes it, else normalised (the keys are equal; a request's name without a word has no key).
 */
export const nameMatchesSql = (requests: string) => `WITH x AS (${requests}), lists AS (${ACTIVE_LIST_VERSIONS})
  SELECT x.id AS request_id, n.ordinal, n.role, n.name, p.party_name, l.list, l.id AS version_id,
         (p.party_name = ANY (n.spellings)) AS exact
    FROM x
    JOIN withdrawal_travel_rule_names n ON n.request_id = x.id
    JOIN lists l ON true
    JOIN screening_list_parties p ON p.version_id = l.id
     AND (p.party_name = ANY (n.spellings) OR p.name_key = n.name_key)`;

type MatchRow = {
  role: NameMatch["role"];
  name: string;
  party_name: string;
  list: string;
  version_id: string | number;
  exact: boolean;
};

/** A request's names against the lists as they stand now (the page shows it to monitoring.read only). */
export async function travelRuleNameMatches(db: Queryable, requestId: string): Promise<NameMatch[]> {
  const { rows } = await db.query<MatchRow>(
    `${nameMatchesSql("SELECT id FROM withdrawal_requests WHERE id = $1::uuid")} ORDER BY n.ordinal, l.list, p.party_name`,
    [requestId],
  );
  return rows.map((r) => ({
    role: r.role,
    name: r.name,
    partyName: r.party_name,
    list: r.list,
    versionId: Number(r.version_id),
    match: r.exact ? "exact" : "normalised",
  }));
}

/**
 * Keeps a request's names with their spellings and keys, in the request's own transaction, so the system rule can
 * match them as soon as the request is screened. Keys the party names of versions imported before name screening
 * first (a few hundred names, once).
 */
export async function recordTravelRuleNames(tx: Queryable, requestId: string, names: ScreenedName[]): Promise<void> {
  if (!names.length) return;
  await keyUnkeyedParties(tx);
  await tx.query(
    `INSERT INTO withdrawal_travel_rule_names (request_id, ordinal, role, name, spellings, name_key)
     SELECT $1::uuid, o, r, n, ARRAY(SELECT jsonb_array_elements_text(s)), nullif(k, '')
       FROM unnest($2::int[], $3::text[], $4::text[], $5::jsonb[], $6::text[]) AS t(o, r, n, s, k)`,
    [
      requestId,
      names.map((_, i) => i),
      names.map((n) => n.role),
      names.map((n) => n.name),
      names.map((n) => JSON.stringify(n.spellings.map((s) => s.trim()))),
      names.map((n) => nameKey(n.name)),
    ],
  );
}

/**
 * The distinct party names an import meets, each kept as a copy of its own: a parser's string may be a slice of the
 * whole chunk of text it was read from, and a set of slices would keep every chunk of an 80 MB file alive.
 */
export function partyNameSet(): { add(name: string | null): void; names(): Iterable<string> } {
  const names = new Set<string>();
  return {
    add(name) {
      if (name && !names.has(name)) names.add(Buffer.from(name, "utf8").toString("utf8"));
    },
    names: () => names,
  };
}

/**
 * The party names of one version being imported (its distinct names, as the parser gathered them), keyed, in the
 * import's transaction: a statement per 5,000 names.
 */
export async function recordPartyNames(tx: Queryable, versionId: number, names: Iterable<string>): Promise<void> {
  let batch: string[] = [];
  const flush = async () => {
    if (!batch.length) return;
    await insertParties(tx, versionId, batch);
    batch = [];
  };
  for (const name of names) {
    if (!name.trim()) continue;
    batch.push(name);
    if (batch.length >= 5000) await flush();
  }
  await flush();
}

async function insertParties(tx: Queryable, versionId: number, names: string[]): Promise<void> {
  await tx.query(
    `INSERT INTO screening_list_parties (version_id, party_name, name_key)
     SELECT $1, n, k FROM unnest($2::text[], $3::text[]) AS t(n, k) ON CONFLICT DO NOTHING`,
    [versionId, names, names.map(nameKey)],
  );
}

/** Keys the party names migration 0120 copied from versions imported before it (name_key NULL). */
async function keyUnkeyedParties(db: Queryable): Promise<void> {
  for (;;) {
    const { rows } = await db.query<{ version_id: string; party_name: string }>(
      `SELECT version_id, party_name FROM screening_list_parties WHERE name_key IS NULL LIMIT 5000`,
    );
    if (!rows.length) return;
    await db.query(
      `UPDATE screening_list_parties p SET name_key = t.k
         FROM unnest($1::bigint[], $2::text[], $3::text[]) AS t(v, n, k)
        WHERE p.version_id = t.v AND p.party_name = t.n`,
      [rows.map((r) => r.version_id), rows.map((r) => r.party_name), rows.map((r) => nameKey(r.party_name))],
    );
  }
}
