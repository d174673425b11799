import "server-only";
// Joining a walked window to a unit's covered span (ledger_sync for a sub-account's deposits, ledger_key_sync
// for a key's fills and plan orders): the same rule for every dataset, in SQL, so it is written in the
// transaction of the window's last page. The union when they meet (a window includes both ends, so one that
// ends where the span starts meets it); the newer one when they do not (a unit not checked for longer than a
// window: what lies between is not known); an older one that does not meet is left out. A window that ends
// the history covers back to 0.

/**
 * A window that ends now is claimed complete only up to this much before now: a record the platform creates
 * while the call is under way (its clock a little behind ours) is not in the answer, and must not be covered.
 */
export const COVERAGE_SKEW_MS = 5_000;

/**
 * The SET list of an upsert on `table` joining [from, to] to its covered span; the parameters hold the
 * window's from and to (bigint ms) and whether it ends the history (boolean).
 */
export function spanUnionSet(table: string, p: { from: string; to: string; endsHistory: string }): string {
  const { from, to, endsHistory } = p;
  return `covered_from = CASE
         WHEN ${table}.covered_to IS NULL OR ${from}::bigint > ${table}.covered_to
           THEN CASE WHEN ${endsHistory}::boolean THEN 0 ELSE ${from}::bigint END
         WHEN ${to}::bigint < ${table}.covered_from THEN ${table}.covered_from
         WHEN ${endsHistory}::boolean THEN 0
         ELSE LEAST(${table}.covered_from, ${from}::bigint) END,
       covered_to = CASE
         WHEN ${table}.covered_to IS NULL OR ${from}::bigint > ${table}.covered_to THEN ${to}::bigint
         WHEN ${to}::bigint < ${table}.covered_from THEN ${table}.covered_to
         ELSE GREATEST(${table}.covered_to, ${to}::bigint) END`;
}

/** The covered_from a first window writes: 0 when it ends the history. */
export const firstFrom = (p: { from: string; endsHistory: string }) =>
  `CASE WHEN ${p.endsHistory}::boolean THEN 0 ELSE ${p.from}::bigint END`;
