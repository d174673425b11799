import "server-only";
// The address book of each sub-account: one person asks for a destination, another approves or rejects it
// (never the same person: the workflow and a CHECK constraint both hold to it). Every decision is one
// guarded UPDATE (… WHERE state = 'requested'), so of two deciders exactly one wins. Asking and deciding
// follow the standing rules of approving a withdrawal (approval-gate.ts; the routes ask a fresh factor),
// and an approved entry counts only from usable_from, its approval plus DESTINATION_LOCK_HOURS. An on-chain entry
// is screened against the sanctions and block lists when proposed and again before its approval (under the lists'
// shared lock), each screening kept; a listed entry is marked and its approval refused, saying why only to those
// who read compliance's work (others read "Held by compliance"). The rescreen after each new list version marks
// the book again (server/screening/rescreen.ts).
import type { z } from "zod";
import { DomainError } from "@/lib/api/errors";
import { readsCompliance } from "@/lib/api/audit/confidential";
import {
  DESTINATIONS_LIMIT,
  type DestinationView,
  type destinationFormSchema,
} from "@/lib/api/withdrawals/destinations";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { env } from "@/lib/env";
import { addressProblem } from "./address-check";
import { refuseOnHold, refuseOwn } from "./approval-gate";
import { getRegistryEntry } from "./subaccounts";
import { isUuid } from "@/lib/uuid";
import { lockListsShared } from "@/server/screening/lock";
import { screenDestination, type Listed } from "@/server/screening/destination-screening";
import type { Role } from "@/lib/rbac";

/** Why a listed entry's approval is refused, to whoever does not read compliance's work. */
export const DESTINATION_HELD =
  "Held by compliance: this address-book entry cannot be approved until compliance decides.";

type Row = {
  id: string;
  sub_uid: string;
  dest: "on_chain" | "internal_transfer";
  chain: string;
  address: string;
  tag: string;
  label: string;
  state: "requested" | "approved" | "rejected";
  requested_by: string;
  requested_at: Date | string;
  decided_by: string | null;
  decided_at: Date | string | null;
  reject_reason: string | null;
  usable_from: Date | string | null;
  listed: Listed | null;
  screened_at: Date | string | null;
};

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
/** The entry as its reader may see it: whether it is listed, and by which lists, only with monitoring.read. */
const viewFor =
  (role: Role | null) =>
  (r: Row): DestinationView => {
    const v = toView(r);
    if (!readsCompliance(role)) return v;
    return {
      ...v,
      listed: r.listed !== null,
      listedBy: r.listed?.map((l) => `${l.list} (version #${l.versionId})`) ?? [],
      screenedAt: iso(r.screened_at),
    };
  };

const toView = (r: Row): DestinationView => ({
  id: r.id,
  subUid: r.sub_uid,
  dest: r.dest,
  chain: r.chain,
  address: r.address,
  tag: r.tag,
  label: r.label,
  state: r.state,
  requestedBy: r.requested_by,
  requestedAt: new Date(r.requested_at).toISOString(),
  decidedBy: r.decided_by,
  decidedAt: iso(r.decided_at),
  rejectReason: r.reject_reason,
  usableFrom: iso(r.usable_from),
});

async function loadRow(db: Queryable, id: string): Promise<Row> {
  const rows = isUuid(id)
    ? (await db.query<Row>("SELECT * FROM withdrawal_destinations WHERE id = $1", [id])).rows
    : [];
  if (!rows[0]) throw new DomainError("not_found", `No address book entry ${id}`);
  return rows[0];
}

export async function listDestinations(
  db: Queryable,
  f: { subUid?: string; state?: Row["state"] },
  viewer: { role: Role } | null = null,
): Promise<{ items: DestinationView[] }> {
  const { rows } = await db.query<Row>(
    `SELECT * FROM withdrawal_destinations WHERE ($1::text IS NULL OR sub_uid = $1) AND ($2::text IS NULL OR state = $2)
     ORDER BY requested_at DESC, id DESC LIMIT $3`,
    [f.subUid ?? null, f.state ?? null, DESTINATIONS_LIMIT],
  );
  return { items: rows.map(viewFor(viewer?.role ?? null)) };
}

export async function requestDestination(
  db: Db,
  session: StaffSession,
  input: z.output<typeof destinationFormSchema>,
): Promise<DestinationView> {
  await refuseOnHold(db, session);
  if (!(await getRegistryEntry(db, input.subUid))) {
    throw new DomainError("invalid_input", "Some fields are not valid", {
      subUid: [`Sub-account ${input.subUid} is not in Brokerdesk's registry`],
    });
  }
  const badAddress = input.dest === "on_chain" ? addressProblem(input.chain, input.address) : null;
  if (badAddress) throw new DomainError("invalid_input", badAddress, { address: [badAddress] });
  try {
    // Its screening is kept with it, in one transaction. What the proposer is answered says nothing of it.
    const row = await db.transaction(async (tx) => {
      const { rows } = await tx.query<Row>(
        `INSERT INTO withdrawal_destinations (sub_uid, dest, chain, address, tag, label, requested_by) VALUES ` +
          `($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [input.subUid, input.dest, input.chain, input.address, input.tag, input.label, session.email],
      );
      const r = rows[0]!;
      if (r.dest === "on_chain")
        await screenDestination(tx, { id: r.id, subUid: r.sub_uid, address: r.address }, "proposal");
      return r;
    });
    return toView(row);
  } catch (e) {
    if ((e as { code?: string }).code === "23505") {
      throw new DomainError(
        "already_registered",
        "This destination is already in the address book of this sub-account, or waiting for approval",
        {
          address: ["already in this sub-account's address book (or waiting for approval)"],
        },
      );
    }
    throw e;
  }
}

async function decide(
  db: Db,
  session: StaffSession,
  id: string,
  to: "approved" | "rejected",
  reason: string | null,
): Promise<DestinationView> {
  const row = await loadRow(db, id);
  refuseOwn(row.requested_by, session, "You asked for this destination, so another person must decide on it");
  await refuseOnHold(db, session);
  // An approval screens the address again, under the lists' shared lock: a version that lists it is either active
  // before this screening or waits until the approval committed (its rescreen then marks the entry).
  const screenFirst = to === "approved" && row.dest === "on_chain";
  const { rows, listed } = await db.transaction(async (tx) => {
    if (screenFirst) {
      await lockListsShared(tx);
      const s = await screenDestination(tx, { id: row.id, subUid: row.sub_uid, address: row.address }, "approval");
      if (s.listed) return { rows: [], listed: s.listed };
    }
    const r = await tx.query<Row>(
      `UPDATE withdrawal_destinations SET state = $2, decided_by = $3, decided_at = now(), reject_reason = $4,
              usable_from = CASE WHEN $2 = 'approved' THEN now() + make_interval(secs => $5::double precision) END
       WHERE id = $1 AND state = 'requested' AND lower(requested_by) <> lower($3) RETURNING *`,
      [id, to, session.email, reason, env.destinationLockMs / 1000],
    );
    return { rows: r.rows, listed: null };
  });
  if (listed) throw listedRefusal(session, row.address, listed);
  if (!rows[0])
    throw new DomainError(
      "already_decided",
      `This destination was already decided: it is ${(await loadRow(db, id)).state}`,
    );
  return toView(rows[0]);
}

export const approveDestination = (db: Db, session: StaffSession, id: string) =>
  decide(db, session, id, "approved", null);
export const rejectDestination = (db: Db, session: StaffSession, id: string, reason: string) =>
  decide(db, session, id, "rejected", reason);

/** The refusal of a listed entry's approval: the lists named only to a reader of compliance's work. */
function listedRefusal(session: StaffSession, address: string, listed: Listed): DomainError {
  if (!readsCompliance(session.role)) return new DomainError("withdrawal_held", DESTINATION_HELD);
  const by = listed.map((l) => `${l.list} (version #${l.versionId})`).join(", ");
  return new DomainError(
    "withdrawal_held",
    `Listed: ${address} is on ${by}. A listed address-book entry cannot be approved; reject it`,
  );
}
