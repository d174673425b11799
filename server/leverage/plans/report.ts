import "server-only";
// A plan's report: its targets in order, each with the platform's answer and code (or why nothing was sent), paged
// by place for the page, and whole as CSV, sealed as every export is (server/audit/export-seal.ts).
import type { PlanTargetView } from "@/lib/api/leverage-plans";
import type { TargetState } from "@/lib/api/leverage-plans/words";
import type { CsvRows } from "@/lib/csv";
import { sealedExport } from "@/server/audit";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { getPlan } from "./plans";

type TargetRow = {
  ord: number;
  sub_uid: string;
  symbol: string;
  current: string | null;
  leverage: string;
  key_name: string | null;
  state: TargetState;
  sends: number;
  code: string | null;
  message: string | null;
  answered_at: Date | null;
};

const view = (r: TargetRow): PlanTargetView => ({
  ord: r.ord,
  subUid: r.sub_uid,
  symbol: r.symbol,
  current: r.current,
  leverage: r.leverage,
  hasKey: r.key_name !== null,
  state: r.state,
  sends: r.sends,
  code: r.code,
  message: r.message,
  answeredAt: r.answered_at ? new Date(r.answered_at).toISOString() : null,
});

const COLUMNS = "ord, sub_uid, symbol, current, leverage, key_name, state, sends, code, message, answered_at";

export async function planTargets(
  db: Queryable,
  id: string,
  f: { state?: TargetState; after?: number; limit?: number },
): Promise<{ items: PlanTargetView[]; next: number | null }> {
  await getPlan(db, id);
  const limit = f.limit ?? 200;
  const { rows } = await db.query<TargetRow>(
    `SELECT ${COLUMNS} FROM leverage_plan_targets
      WHERE plan_id = $1 AND ord > $2 AND ($3::text IS NULL OR state = $3) ORDER BY ord LIMIT $4`,
    [id, f.after ?? 0, f.state ?? null, limit + 1],
  );
  const items = rows.slice(0, limit).map(view);
  return { items, next: rows.length > limit ? items[items.length - 1]!.ord : null };
}

/** The report as CSV: every target, sealed (the file's hash in the export's audit outcome). */
export async function planReportExport(
  db: Db,
  session: StaffSession,
  id: string,
  ctx: { requestId?: string; ip?: string | null } = {},
): Promise<CsvRows> {
  const plan = await getPlan(db, id);
  const subject = {
    actor: session.email,
    actorRole: session.role,
    action: "leveragePlans.export" as const,
    target: `leverage-plan:${id}`,
    requestId: ctx.requestId ?? null,
    ip: ctx.ip ?? null,
  };
  return sealedExport(
    db,
    subject,
    { planId: id, targets: plan.counts.total },
    (async function* () {
      let after = 0;
      for (;;) {
        const page = await planTargets(db, id, { after, limit: 1000 });
        for (const t of page.items)
          yield [
            t.ord,
            t.subUid,
            t.symbol,
            t.current ?? "",
            t.leverage,
            t.hasKey,
            t.state,
            t.sends,
            t.code ?? "",
            t.message ?? "",
            t.answeredAt ?? "",
          ];
        if (page.next === null) return;
        after = page.next;
      }
    })(),
  );
}
