import "server-only";
// The Travel Rule's parties Brokerdesk records outside a request: a sub-account's holder (the originator its
// withdrawals carry, copied into each request when it is made) and a deposit's originator, as compliance
// recorded it. The routes' audit entries (intent and outcome) are written by the route wrapper.
import { DomainError } from "@/lib/api/errors";
import type { DepositOriginatorInput, DepositOriginatorView } from "@/lib/api/ledger/deposit-originator";
import type { HolderView } from "@/lib/api/registry/holder";
import type { Ivms101Person } from "@/lib/ivms101";
import type { StaffSession } from "@/server/auth/session";
import type { Queryable } from "@/server/db";

const json = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);
const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

type HolderRow = { sub_uid: string; holder: unknown; holder_updated_by: string | null; holder_updated_at: Date | null };

const holderView = (r: HolderRow): HolderView => ({
  subUid: r.sub_uid,
  holder: (json(r.holder) as HolderView["holder"]) ?? null,
  updatedBy: r.holder_updated_by,
  updatedAt: iso(r.holder_updated_at),
});

const noSubaccount = (uid: string) =>
  new DomainError("not_found", `Sub-account ${uid} is not in Brokerdesk's registry`);

export async function getHolder(db: Queryable, uid: string): Promise<HolderView> {
  if (!/^\d{1,32}$/.test(uid)) throw noSubaccount(uid);
  const { rows } = await db.query<HolderRow>(
    "SELECT sub_uid, holder, holder_updated_by, holder_updated_at FROM subaccounts WHERE sub_uid = $1",
    [uid],
  );
  if (!rows[0]) throw noSubaccount(uid);
  return holderView(rows[0]);
}

/** Records the holder; requests already made keep the copy they were made with. */
export async function setHolder(
  db: Queryable,
  session: StaffSession,
  uid: string,
  holder: Ivms101Person,
): Promise<HolderView> {
  if (!/^\d{1,32}$/.test(uid)) throw noSubaccount(uid);
  const { rows } = await db.query<HolderRow>(
    `UPDATE subaccounts SET holder = $2::jsonb, holder_updated_by = $3, holder_updated_at = now() WHERE sub_uid = $1
     RETURNING sub_uid, holder, holder_updated_by, holder_updated_at`,
    [uid, JSON.stringify(holder), session.email],
  );
  if (!rows[0]) throw noSubaccount(uid);
  return holderView(rows[0]);
}

type OriginatorRow = { originator: unknown; recorded_by: string; recorded_at: Date };

const noDeposit = (orderId: string) => new DomainError("not_found", `No deposit ${orderId} in Brokerdesk's ledger`);

export async function getDepositOriginator(db: Queryable, orderId: string): Promise<DepositOriginatorView> {
  const { rows } = await db.query<OriginatorRow & { known: boolean }>(
    `SELECT o.originator, o.recorded_by, o.recorded_at, true AS known FROM ledger_deposits d
       LEFT JOIN deposit_originators o ON o.order_id = d.order_id WHERE d.order_id = $1`,
    [orderId],
  );
  if (!rows[0]) throw noDeposit(orderId);
  const r = rows[0];
  return {
    orderId,
    originator: r.originator ? (json(r.originator) as DepositOriginatorView["originator"]) : null,
    recordedBy: r.recorded_by ?? null,
    recordedAt: r.recorded_at ? iso(r.recorded_at) : null,
  };
}

/** Records a deposit's originator (a new record replaces the old; the audit log keeps each). */
export async function setDepositOriginator(
  db: Queryable,
  session: StaffSession,
  orderId: string,
  input: DepositOriginatorInput,
): Promise<DepositOriginatorView> {
  const { rows } = await db.query<OriginatorRow>(
    `INSERT INTO deposit_originators (order_id, originator, recorded_by)
       SELECT order_id, $2::jsonb, $3 FROM ledger_deposits WHERE order_id = $1
     ON CONFLICT (order_id) DO UPDATE SET originator = EXCLUDED.originator, recorded_by = EXCLUDED.recorded_by,
       recorded_at = now()
     RETURNING originator, recorded_by, recorded_at`,
    [orderId, JSON.stringify(input.originator), session.email],
  );
  if (!rows[0]) throw noDeposit(orderId);
  return {
    orderId,
    originator: json(rows[0].originator) as DepositOriginatorView["originator"],
    recordedBy: rows[0].recorded_by,
    recordedAt: iso(rows[0].recorded_at),
  };
}
