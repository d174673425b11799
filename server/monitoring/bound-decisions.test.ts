import "server-only";
// Decisions bound to what was reviewed, through the real request and approval workflows against the simulator:
// compliance opens a case holding one withdrawal (W1, 1 USDT, a new address); the broker then asks for W2
// (25,000 USDT, another new address), whose alert joins the same case. A decision sent with the version the
// reviewer saw applies to the first alert only: a close is refused whole, naming the new alert, and changes
// nothing; a clear releases the first alert and the second keeps W2 held (the lead's approval is refused
// `withdrawal_held`); once nothing the reviewer saw holds, a clear or a rejection on that old view is refused.
import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { closeCaseSchema, clearHoldSchema, rejectHeldSchema } from "@/lib/api/monitoring";
import { withdrawalFormSchema, type WithdrawalView } from "@/lib/api/withdrawals";
import {
  addToRegistry,
  deskUid,
  domainRefusal,
  staffSession,
  STEADY_BALANCES,
  workflowTestBed,
  TEST_TRAVEL_RULE,
} from "@/server/testing";
import { approveWithdrawal, requestWithdrawal } from "@/server/workflows/withdrawal-requests";
import { listAlerts } from "./alert";
import { clearHold, closeCase, getCase, rejectHeldWithdrawal } from "./case";
import { refuseHeld } from "./hold";
import { activeVersion, clearMonitoring } from "./testing";

const broker = staffSession("broker", "broker");
const lead = staffSession("lead", "lead1");
const alice = staffSession("compliance", "alice");

/** A TRON address nobody used: 0x41 and 20 random bytes, base58check. */
function tronAddress(): string {
  const payload = Buffer.concat([Buffer.from([0x41]), randomBytes(20)]);
  const sha = (b: Buffer) => createHash("sha256").update(b).digest();
  const bytes = Buffer.concat([payload, sha(sha(payload)).subarray(0, 4)]);
  const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  let n = BigInt(`0x${bytes.toString("hex")}`);
  let out = "";
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)]! + out;
    n /= 58n;
  }
  return out;
}

describe("[monitoring][bound-decisions]", () => {
  const bed = workflowTestBed({ simulator: STEADY_BALANCES });
  let desk: string;

  beforeAll(async () => {
    desk = deskUid(bed.sim, "desk03");
    await addToRegistry(bed.db, desk, "desk03@x");
    // Staff rows as the demo seed makes them (no approver hold): approving reads the approver's row.
    for (const s of [broker, lead, alice]) {
      const { rows } = await bed.db.query<{ id: string }>(
        "INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3) RETURNING id",
        [s.email, s.name, s.role],
      );
      s.userId = rows[0]!.id;
    }
  });

  const request = (amount: string) =>
    requestWithdrawal(
      bed.db,
      bed.client,
      broker,
      withdrawalFormSchema.parse({
        subUid: desk,
        coin: "USDT",
        dest: "on_chain",
        address: tronAddress(),
        amount,
        reason: "client payout",
        travelRule: TEST_TRAVEL_RULE,
      }),
    );
  const approve = (w: WithdrawalView) =>
    approveWithdrawal(bed.db, bed.client, lead, w.id, { confirmAmount: w.amount, confirmAddress: w.address });
  const alertsOf = async (caseId: string) =>
    (await listAlerts(bed.db, { caseId, limit: 50 })).items
      .map((a) => ({
        id: a.id,
        status: a.status,
        clearReason: a.clearReason,
        joinedVersion: a.joinedVersion,
        withdrawal: a.records[0]?.id,
      }))
      .sort((a, b) => a.joinedVersion! - b.joinedVersion!);
  const stateOf = async (id: string) =>
    (await bed.db.query<{ state: string }>(`SELECT state FROM withdrawal_requests WHERE id = $1`, [id])).rows[0]!.state;
  /** Everything a decision could change: the case, its alerts, the withdrawals. */
  const snapshot = async (caseId: string) => ({
    c: (await bed.db.query(`SELECT * FROM monitoring_cases WHERE id = $1`, [caseId])).rows,
    alerts: (await bed.db.query(`SELECT * FROM monitoring_alerts WHERE case_id = $1 ORDER BY id`, [caseId])).rows,
    withdrawals: (await bed.db.query(`SELECT id, state, version FROM withdrawal_requests ORDER BY id`)).rows,
  });

  it("[monitoring][bound-decisions] a decision on W1's alert never releases W2's, raised after", async () => {
    await clearMonitoring(bed.db);
    bed.sim.state.setBalance(desk, "USDT", "30000");
    await activeVersion(
      bed.db,
      { kind: "new_destination", params: { lookbackDays: 365 } },
      { holds: true, severity: "high", name: "New destination" },
    );

    const w1 = await request("1");
    const [a] = (await listAlerts(bed.db, { subUid: desk })).items;
    expect(a).toMatchObject({ holds: true, status: "open", joinedVersion: 1, caseVersion: 1 });
    const caseId = a!.caseId!;
    // Compliance opens the case: one alert, version 1.
    const opened = await getCase(bed.db, caseId);
    expect(opened).toMatchObject({ alertCount: 1, version: 1, holding: true });

    const w2 = await request("25000");
    const now = await getCase(bed.db, caseId);
    expect(now).toMatchObject({ alertCount: 2, version: 2 });
    const [alertA, alertB] = await alertsOf(caseId);
    expect(alertA).toMatchObject({ withdrawal: w1.id, joinedVersion: 1 });
    expect(alertB).toMatchObject({ withdrawal: w2.id, joinedVersion: 2, status: "open" });

    // A close as of version 1 is refused whole, naming B, and changes nothing.
    const before = await snapshot(caseId);
    const stale = await domainRefusal(
      closeCase(bed.db, alice, caseId, { outcome: "false_positive", reason: "W1 ok", version: opened.version }),
    );
    expect(stale.code).toBe("case_changed");
    expect(stale.status).toBe(409);
    expect(stale.message).toBe(
      `1 new alert since you opened this case: alert ${alertB!.id} (New destination, high, holding). ` +
        "Nothing was closed: reload the case to review them.",
    );
    expect(await snapshot(caseId)).toEqual(before);

    // A clear as of version 1 releases A only; B keeps the withdrawals held.
    const cleared = await clearHold(bed.db, alice, caseId, { reason: "W1 ok", version: opened.version });
    expect(cleared).toMatchObject({ holding: true, version: 2, status: "open" });
    expect(await alertsOf(caseId)).toEqual([
      { ...alertA, status: "cleared", clearReason: "W1 ok" },
      { ...alertB, status: "open", clearReason: null },
    ]);
    const held = await domainRefusal(approve(w2));
    expect(held.code).toBe("withdrawal_held");
    expect(await stateOf(w2.id)).toBe("requested");

    // On that old view nothing the reviewer saw still holds: clearing or rejecting again is refused, naming B.
    const after = await snapshot(caseId);
    const again = await domainRefusal(clearHold(bed.db, alice, caseId, { reason: "W1 ok", version: 1 }));
    expect(again.code).toBe("case_changed");
    expect(again.message).toContain(`alert ${alertB!.id}`);
    const rejectStale = await domainRefusal(
      rejectHeldWithdrawal(bed.db, alice, caseId, { withdrawalId: w2.id, reason: "W1 ok", version: 1 }),
    );
    expect(rejectStale.code).toBe("case_changed");
    expect(await snapshot(caseId)).toEqual(after);
    // A version the case has not reached is refused on its field.
    const future = await domainRefusal(clearHold(bed.db, alice, caseId, { reason: "W2 ok", version: 3 }));
    expect(Object.keys(future.fieldErrors ?? {})).toEqual(["version"]);

    // Reviewed as of version 2, W2 is rejected and the case closes; A keeps its own clearing.
    await rejectHeldWithdrawal(bed.db, alice, caseId, { withdrawalId: w2.id, reason: "unknown address", version: 2 });
    expect(await stateOf(w2.id)).toBe("rejected");
    const closed = await closeCase(bed.db, alice, caseId, { outcome: "monitored", reason: "W2 stopped", version: 2 });
    expect(closed.status).toBe("closed");
    expect((await alertsOf(caseId)).map((x) => [x.status, x.clearReason])).toEqual([
      ["cleared", "W1 ok"],
      ["closed", null],
    ]);
    await expect(refuseHeld(bed.db, desk)).resolves.toBeUndefined();
  });

  it("[monitoring][bound-decisions] a decision without the version seen is refused on its field", () => {
    const missing = (r: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
      r.error?.issues.map((i) => [i.path.join("."), i.message]);
    const required = [["version", expect.stringMatching(/^version is required: the case's version you reviewed/)]];
    expect(missing(closeCaseSchema.safeParse({ outcome: "monitored", reason: "fine" }))).toEqual(required);
    expect(missing(clearHoldSchema.safeParse({ reason: "fine" }))).toEqual(required);
    const withdrawalId = "0b7d4c1e-9f5a-4a47-9d0f-6f0d6f6f6f6f";
    expect(missing(rejectHeldSchema.safeParse({ withdrawalId, reason: "fine" }))).toEqual(required);
    expect(missing(clearHoldSchema.safeParse({ reason: "fine", version: -1 }))?.[0]?.[0]).toBe("version");
    expect(missing(clearHoldSchema.safeParse({ reason: "fine", version: 1.5 }))?.[0]?.[0]).toBe("version");
  });
});
