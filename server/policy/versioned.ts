import "server-only";
// A policy kept as versions (the money-out policy, migration 0031; the leverage policy, migration 0160): an
// admin drafts one; another admin in good standing publishes it (the route asks a fresh factor), which supersedes
// the one published before, in one transaction; a draft may be discarded. A published version is never edited: a
// change is a new draft. Every step is audited by its route. One table per policy, of the same shape.
import type * as z from "zod/mini";
import { DomainError } from "@/lib/api/errors";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { refuseOnHold } from "@/server/workflows/approval-gate";

export type VersionState = "draft" | "published" | "superseded" | "discarded";

export type VersionView<Rules> = {
  version: number;
  state: VersionState;
  rules: Rules;
  note: string;
  draftedBy: string;
  draftedAt: string;
  publishedBy: string | null;
  publishedAt: string | null;
  supersededAt: string | null;
};

type Row = {
  version: number;
  state: VersionState;
  rules: unknown;
  note: string;
  drafted_by: string;
  drafted_at: Date | string;
  published_by: string | null;
  published_at: Date | string | null;
  superseded_at: Date | string | null;
};

export type VersionedPolicyOptions<Rules> = {
  /** The table (of 0031's shape). */
  table: "money_out_policies" | "leverage_policies";
  /** The advisory lock's name: drafts and publications of one policy are one at a time. */
  lock: string;
  /** In messages: "money-out policy". */
  what: string;
  /** The rules' schema (the page checks with the same). */
  schema: z.ZodMiniType<Rules>;
};

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** A refusal of rules names each problem by rule and field, under the field "rules". */
export function rulesProblems(raw: unknown, issues: readonly { path: PropertyKey[]; message: string }[]): string[] {
  const list = Array.isArray(raw) ? (raw as { name?: unknown }[]) : [];
  return issues.map((issue) => {
    const [index, ...rest] = issue.path;
    if (typeof index !== "number") return issue.message;
    const name = typeof list[index]?.name === "string" ? ` “${list[index].name}”` : "";
    const where = rest.length ? `${rest.map(String).join(".")}: ` : "";
    return `rule ${index + 1}${name}: ${where}${issue.message}`;
  });
}

export function versionedPolicy<Rules>(o: VersionedPolicyOptions<Rules>) {
  const { table, what } = o;

  /** Stored rules are parsed on the way out too: a row no schema accepts is a fault, not a policy. */
  function rulesOf(raw: unknown, version: number): Rules {
    const parsed = o.schema.safeParse(typeof raw === "string" ? JSON.parse(raw) : raw);
    if (!parsed.success) throw new Error(`${what} version ${version} holds rules that do not parse`);
    return parsed.data;
  }

  const toView = (r: Row): VersionView<Rules> => ({
    version: Number(r.version),
    state: r.state,
    rules: rulesOf(r.rules, r.version),
    note: r.note,
    draftedBy: r.drafted_by,
    draftedAt: iso(r.drafted_at)!,
    publishedBy: r.published_by,
    publishedAt: iso(r.published_at),
    supersededAt: iso(r.superseded_at),
  });

  /**
   * Rules as the page sends them, checked by the schema the page uses; a refusal names each problem by rule and
   * field ("rule 2 “Big”: then.approvals: at most 3 approvals in all"), under the field "rules".
   */
  function parseRules(raw: unknown): Rules {
    const parsed = o.schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    throw new DomainError("invalid_input", "The rules are not valid", {
      rules: rulesProblems(raw, parsed.error.issues),
    });
  }

  async function get(db: Queryable, version: number): Promise<VersionView<Rules>> {
    const { rows } = await db.query<Row>(`SELECT * FROM ${table} WHERE version = $1`, [version]);
    if (!rows[0]) throw new DomainError("not_found", `No ${what} version ${version}`);
    return toView(rows[0]);
  }

  return {
    parseRules,
    get,

    /** The published version, or null. */
    async published(db: Queryable): Promise<{ version: number; rules: Rules } | null> {
      const { rows } = await db.query<Row>(`SELECT * FROM ${table} WHERE state = 'published'`);
      return rows[0] ? { version: Number(rows[0].version), rules: rulesOf(rows[0].rules, rows[0].version) } : null;
    },

    async list(db: Queryable): Promise<{ items: VersionView<Rules>[] }> {
      const { rows } = await db.query<Row>(`SELECT * FROM ${table} ORDER BY version DESC LIMIT 100`);
      return { items: rows.map(toView) };
    },

    /** A new draft (the next version number), its rules checked by the same schema the page uses. */
    async draft(db: Db, session: StaffSession, input: { rules: unknown; note?: string }): Promise<VersionView<Rules>> {
      const rules = parseRules(input.rules);
      return db.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [o.lock]);
        const { rows } = await tx.query<Row>(
          `INSERT INTO ${table} (version, rules, note, drafted_by)
           VALUES ((SELECT coalesce(max(version), 0) + 1 FROM ${table}), $1::jsonb, $2, $3) RETURNING *`,
          [JSON.stringify(rules), input.note ?? "", session.email],
        );
        return toView(rows[0]!);
      });
    },

    /** Publishes a draft: never by its author; the version published before is superseded at the same moment. */
    async publish(db: Db, session: StaffSession, version: number): Promise<VersionView<Rules>> {
      await refuseOnHold(db, session);
      return db.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [o.lock]);
        const { rows } = await tx.query<Row>(`SELECT * FROM ${table} WHERE version = $1 FOR UPDATE`, [version]);
        const row = rows[0];
        if (!row) throw new DomainError("not_found", `No ${what} version ${version}`);
        if (row.drafted_by.toLowerCase() === session.email.toLowerCase())
          throw new DomainError("own_request", `You drafted this policy, so another admin must publish it`);
        if (row.state !== "draft")
          throw new DomainError("already_decided", `Version ${version} is ${row.state}: only a draft can be published`);
        // An admin account another admin set up (or whose factors were reset, or promoted it) is on hold, as an
        // approver's is: otherwise the author could publish their own draft through an account whose password they
        // chose. Checked first (above), and again under the policy's lock.
        await refuseOnHold(tx, session);
        await tx.query(`UPDATE ${table} SET state = 'superseded', superseded_at = now() WHERE state = 'published'`);
        const { rows: done } = await tx.query<Row>(
          `UPDATE ${table} SET state = 'published', published_by = $2, published_at = now()
           WHERE version = $1 AND state = 'draft' RETURNING *`,
          [version, session.email],
        );
        return toView(done[0]!);
      });
    },

    /** Discards a draft: a decision on the policy, so its decider is in good standing (the route asks a fresh factor). */
    async discard(db: Db, session: StaffSession, version: number): Promise<VersionView<Rules>> {
      await refuseOnHold(db, session);
      const { rows } = await db.query<Row>(
        `UPDATE ${table} SET state = 'discarded' WHERE version = $1 AND state = 'draft' RETURNING *`,
        [version],
      );
      if (rows[0]) return toView(rows[0]);
      const now = await get(db, version);
      throw new DomainError("already_decided", `Version ${version} is ${now.state}: only a draft can be discarded`);
    },

    /** A version number from a path; anything else is simply not found. */
    versionOf(raw: string): number {
      if (!/^[1-9]\d{0,8}$/.test(raw)) throw new DomainError("not_found", `No ${what} version ${raw}`);
      return Number(raw);
    },
  };
}
