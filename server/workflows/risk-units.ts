import "server-only";
import type { z } from "zod";
import { MAX_UIDS_PER_RISK_UNIT, catalog } from "@/lib/platform/catalog";
import type { Db, Queryable } from "@/server/db";
import type { StaffSession } from "@/server/auth/session";
import { invalidField } from "@/lib/api/errors";
import { BOUND_OUTSIDE, type Binding } from "@/lib/api/risk-units/reads";
import type { PlatformClient } from "@/server/platform/client";
import { PlatformError } from "@/server/platform/errors";

export type BindInput = z.output<(typeof catalog)["riskUnits.bind"]["request"]>;

export type { Binding };

type Row = {
  id: string;
  risk_unit_id: string;
  uid: string;
  state: Binding["state"];
  bound_by: string;
  bound_at: Date;
  unbound_by: string | null;
  unbound_at: Date | null;
};
const toBinding = (r: Row): Binding => ({
  id: r.id,
  riskUnitId: r.risk_unit_id,
  uid: r.uid,
  state: r.state,
  boundBy: r.bound_by,
  boundAt: r.bound_by === BOUND_OUTSIDE ? null : new Date(r.bound_at).toISOString(),
  unboundBy: r.unbound_by,
  unboundAt: r.unbound_at ? new Date(r.unbound_at).toISOString() : null,
});

/** Bindings made through Brokerdesk, newest first. */
export async function listBindings(db: Queryable): Promise<Binding[]> {
  const { rows } = await db.query<Row>("SELECT * FROM risk_unit_bindings ORDER BY bound_at DESC, id");
  return rows.map(toBinding);
}

/** The platform's refusals to bind a UID that it holds in another risk unit (49001), the latest per UID. */
export type BoundElsewhere = {
  uid: string;
  riskUnitId: string;
  code: string;
  msg: string;
  refusedBy: string;
  refusedAt: string;
};

export async function listBoundElsewhere(db: Queryable): Promise<BoundElsewhere[]> {
  const { rows } = await db.query<{
    uid: string;
    risk_unit_id: string;
    code: string;
    msg: string;
    refused_by: string;
    refused_at: Date;
  }>("SELECT * FROM risk_unit_refusals ORDER BY refused_at DESC, uid");
  return rows.map((r) => ({
    uid: r.uid,
    riskUnitId: r.risk_unit_id,
    code: r.code,
    msg: r.msg,
    refusedBy: r.refused_by,
    refusedAt: new Date(r.refused_at).toISOString(),
  }));
}

/** 49001 is remembered (the page warns next time); a later success for the UID forgets it. */
async function rememberRefusal(db: Queryable, input: BindInput, session: StaffSession, e: unknown): Promise<void> {
  if (!(e instanceof PlatformError) || e.code !== "49001") return;
  await db.query(
    `INSERT INTO risk_unit_refusals (uid, risk_unit_id, code, msg, refused_by) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (uid) DO UPDATE SET risk_unit_id = EXCLUDED.risk_unit_id, code = EXCLUDED.code, msg = EXCLUDED.msg,
       refused_by = EXCLUDED.refused_by, refused_at = now()`,
    [input.uid, input.riskUnitId ?? "", e.code, e.msg.slice(0, 500), session.email],
  );
}

/**
 * What Brokerdesk knows, checked before anything is sent (the platform has the last word):
 * uid ≠ riskUnitId, at most 50 UIDs per unit, not bound elsewhere by our records; an unbind of a UID our
 * records put in another unit. Refusals name the field.
 */
export async function precheck(db: Queryable, input: BindInput): Promise<void> {
  const unit = input.riskUnitId;
  if (unit && unit === input.uid) throw invalidField("uid", "uid must not be the risk unit itself (riskUnitId)");
  const { rows } = await db.query<{ risk_unit_id: string; bound_by: string; bound_at: Date }>(
    "SELECT risk_unit_id, bound_by, bound_at FROM risk_unit_bindings WHERE uid = $1 AND state = 'bound'",
    [input.uid],
  );
  const current = rows[0];
  if (input.operate === "bind") {
    if (current && current.risk_unit_id !== unit) {
      throw invalidField(
        "uid",
        `UID ${input.uid} is bound to risk unit ${current.risk_unit_id} (by ${current.bound_by}, ` +
          `${new Date(current.bound_at).toISOString().slice(0, 16).replace("T", " ")} UTC): unbind it there ` +
          `first`,
      );
    }
    if (unit) {
      const { rows: counted } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM risk_unit_bindings WHERE risk_unit_id = $1 AND state = 'bound'",
        [unit],
      );
      if ((counted[0]?.n ?? 0) >= MAX_UIDS_PER_RISK_UNIT && !current) {
        throw invalidField(
          "riskUnitId",
          `Risk unit ${unit} already holds ${MAX_UIDS_PER_RISK_UNIT} UIDs in Brokerdesk's records, the ` +
            `platform's maximum`,
        );
      }
    }
  } else if (current && unit && current.risk_unit_id !== unit) {
    throw invalidField(
      "riskUnitId",
      `By Brokerdesk's records UID ${input.uid} is bound to risk unit ${current.risk_unit_id}, not ${unit}`,
    );
  }
}

/** Sends E9 with the main account's key and records the binding once the platform agrees. */
export async function bindOrUnbind(
  db: Db,
  client: PlatformClient,
  session: StaffSession,
  input: BindInput,
): Promise<{ binding: Binding; platform: z.output<(typeof catalog)["riskUnits.bind"]["response"]> }> {
  await precheck(db, input);
  let data: z.output<(typeof catalog)["riskUnits.bind"]["response"]>;
  try {
    ({ data } = await client.call("riskUnits.bind", input));
  } catch (e) {
    await rememberRefusal(db, input, session, e);
    throw e;
  }
  await db.query("DELETE FROM risk_unit_refusals WHERE uid = $1", [input.uid]);
  const unit = input.riskUnitId ?? "";
  const { rows } =
    input.operate === "bind"
      ? await db.query<Row>(
          `INSERT INTO risk_unit_bindings (risk_unit_id, uid, bound_by) VALUES ($1, $2, $3)
           ON CONFLICT (uid) WHERE state = 'bound' DO UPDATE SET risk_unit_id = EXCLUDED.risk_unit_id RETURNING *`,
          [unit, input.uid, session.email],
        )
      : await db.query<Row>(
          `UPDATE risk_unit_bindings SET state = 'unbound', unbound_by = $2, unbound_at = now()
           WHERE uid = $1 AND state = 'bound' RETURNING *`,
          [input.uid, session.email],
        );
  // An unbind of a UID bound outside Brokerdesk has no row of ours: record it for the history.
  const row =
    rows[0] ??
    (
      await db.query<Row>(
        `INSERT INTO risk_unit_bindings (risk_unit_id, uid, state, bound_by, unbound_by, unbound_at)
         VALUES ($1, $2, 'unbound', $4, $3, now()) RETURNING *`,
        [unit, input.uid, session.email, BOUND_OUTSIDE],
      )
    ).rows[0]!;
  return { binding: toBinding(row), platform: data };
}
