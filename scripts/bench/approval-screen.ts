// The sanctions list of the approval benchmark (./approval.ts): `n` addresses written in SQL in the shape an SDN
// import leaves (one entry per address under the version's key, ten addresses a party, the party names keyed by
// server/screening/names.ts), then analysed; switched active and inactive between samples. And the direct
// measurement of what the approval's transaction adds: lockListsShared, then screenAddress of the destination.
import type { Db } from "@/server/db";
import { lockListsShared } from "@/server/screening/lock";
import { recordPartyNames } from "@/server/screening/names";
import { screenAddress } from "@/server/screening/screen";

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

export type BenchList = { versionId: number; n: number; seconds: number };

/** The i-th listed address: EVM hex, lower case (the lookup key). */
export const listedAddress = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;

export async function benchList(db: Db, n: number): Promise<BenchList> {
  const t0 = performance.now();
  const versionId = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO screening_list_versions (list, format, sha256, counts, address_count, imported_by, activated_at)
       VALUES ('bench-sdn', 'sdn', repeat('0', 64), jsonb_build_object('ETH', $1::int), $1, 'bench', NULL)
       RETURNING id`,
      [n],
    );
    const id = Number(rows[0]!.id);
    for (let from = 0; from < n; from += 250_000) {
      await tx.query(
        `INSERT INTO screening_list_entries (version_id, address, ordinal, asset, listed_as, party_name, party_ref)
         SELECT $1, '0x' || lpad(to_hex(i), 40, '0'), i, 'ETH', '0x' || lpad(to_hex(i), 40, '0'),
                'Bench Party ' || (i / 10), 'bench-' || (i / 10)
           FROM generate_series($2::int, $3::int) AS i`,
        [id, from, Math.min(n, from + 250_000) - 1],
      );
    }
    await recordPartyNames(
      tx,
      id,
      (function* () {
        for (let p = 0; p * 10 < n; p++) yield `Bench Party ${p}`;
      })(),
    );
    return id;
  });
  await db.query(
    db.engine === "postgres" ? "VACUUM (ANALYZE) screening_list_entries" : "ANALYZE screening_list_entries",
  );
  await db.query("ANALYZE screening_list_parties");
  return { versionId, n, seconds: round((performance.now() - t0) / 1000, 1) };
}

/** Active (the list's newest version, now) or not (waiting, as a version no second person has confirmed). */
export async function setListActive(db: Db, versionId: number, active: boolean): Promise<void> {
  await db.query(
    `UPDATE screening_list_versions SET activated_at = ${active ? "clock_timestamp()" : "NULL"} WHERE id = $1`,
    [versionId],
  );
}

/**
 * p50/p95 of lockListsShared + screenAddress inside a transaction (its begin and commit not counted: the approval
 * has its transaction already), over 2,000 samples after 300 to warm up, half listed addresses and half not.
 */
export async function inTransactionScreening(db: Db, list: BenchList): Promise<Record<string, unknown>> {
  const times: number[] = [];
  let matched = 0;
  for (let i = 0; i < 2300; i++) {
    const address =
      i % 2 ? listedAddress((i * 7919) % list.n) : `0x${(0xfff0000000 + i).toString(16).padStart(40, "f")}`;
    await db.transaction(async (tx) => {
      const t0 = performance.now();
      await lockListsShared(tx);
      const r = await screenAddress(tx, address);
      if (i < 300) return;
      times.push(performance.now() - t0);
      if (r.match) matched++;
    });
  }
  return { samples: times.length, matched, "p50 ms": round(pct(times, 0.5)), "p95 ms": round(pct(times, 0.95)) };
}

/**
 * p50/p95 of `evaluate` (the withdrawal rules over the sub-account's requests, as an approval's screening runs them:
 * the address and name screening among them) with the list inactive and active in turn, 200 samples each after 20.
 */
export async function listedRulesEvaluation(
  db: Db,
  list: BenchList,
  evaluate: () => Promise<unknown>,
): Promise<Record<string, unknown>[]> {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < 420; i++) {
    const active = i % 2;
    await setListActive(db, list.versionId, active === 1);
    const t0 = performance.now();
    await evaluate();
    if (i >= 20) times[active]!.push(performance.now() - t0);
  }
  return [0, 1].map((active) => ({
    list: active ? `${list.n} addresses` : "none",
    samples: times[active]!.length,
    "p50 ms": round(pct(times[active]!, 0.5)),
    "p95 ms": round(pct(times[active]!, 0.95)),
  }));
}
