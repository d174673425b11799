// The address book against a real (PGlite) database and the simulator over loopback: a destination needs a
// second person, a decision is made once, and a withdrawal says whether its destination is in the book.
import { beforeAll, describe, expect, it } from "vitest";
import {
  destinationFormSchema,
  destinationResources,
  type DestinationFormInput,
} from "@/lib/api/withdrawals/destinations";
import { withdrawalFormSchema } from "@/lib/api/withdrawals";
import {
  addToRegistry,
  deskUid,
  domainRefusal,
  staffSession,
  STEADY_BALANCES,
  workflowTestBed,
  TEST_TRAVEL_RULE,
} from "@/server/testing";
import { approveDestination, listDestinations, rejectDestination, requestDestination } from "./withdrawal-destinations";
import { getWithdrawal } from "./withdrawal-ledger";
import { requestWithdrawal } from "./withdrawal-requests";

const broker = staffSession("broker", "broker");
const lead = staffSession("lead", "lead");
const TRON = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";

const bed = workflowTestBed({ simulator: STEADY_BALANCES, client: { timeoutMs: 5_000, backoffBaseMs: 5 } });
let uid: string;

beforeAll(async () => {
  uid = deskUid(bed.sim, "desk02");
  await addToRegistry(bed.db, uid, "desk02@x");
  // Staff rows as the demo seed makes them (no approver hold): asking and deciding read the person's row.
  for (const s of [broker, lead]) {
    const { rows } = await bed.db.query<{ id: string }>(
      "INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3) RETURNING id",
      [s.email, s.name, s.role],
    );
    s.userId = rows[0]!.id;
  }
});

/** Moves an approved entry's lock into the past, as if DESTINATION_LOCK_HOURS had passed. */
const unlock = (id: string) =>
  bed.db.query("UPDATE withdrawal_destinations SET usable_from = now() - interval '1 second' WHERE id = $1", [id]);

const entry = (over: Partial<DestinationFormInput> = {}) =>
  destinationFormSchema.parse({
    subUid: uid,
    dest: "on_chain",
    chain: "trc20",
    address: TRON,
    label: "Client A's wallet",
    ...over,
  });

describe("[withdrawals][address-book]", () => {
  it("the server checks the address for the chain and names the field; the form names a missing chain", async () => {
    const bad = await domainRefusal(requestDestination(bed.db, broker, entry({ address: "abc" })));
    expect(bad.fieldErrors).toEqual({
      address: ["address is not a valid Tron address (chain TRC20): check it character by character"],
    });
    expect((await listDestinations(bed.db, { subUid: uid })).items).toHaveLength(0);
    const noChain = destinationFormSchema.safeParse({ subUid: uid, dest: "on_chain", address: TRON, label: "x" });
    expect(noChain.success ? [] : noChain.error.issues.map((i) => i.path[0])).toEqual(["chain"]);
  });

  it("a destination needs a second person; a withdrawal to it is in the book only once approved", async () => {
    bed.sim.state.setBalance(uid, "USDT", "100");
    const w = await requestWithdrawal(
      bed.db,
      bed.client,
      broker,
      withdrawalFormSchema.parse({
        subUid: uid,
        coin: "USDT",
        dest: "on_chain",
        address: TRON,
        amount: "1",
        reason: "book test",
        travelRule: TEST_TRAVEL_RULE,
      }),
    );
    expect(w.inAddressBook).toBe(false);

    const d = await requestDestination(bed.db, broker, entry());
    expect(d).toMatchObject({ state: "requested", chain: "TRC20", tag: "", requestedBy: broker.email });
    expect((await domainRefusal(requestDestination(bed.db, lead, entry()))).code).toBe("already_registered");
    expect((await getWithdrawal(bed.db, w.id)).inAddressBook).toBe(false);
    expect((await domainRefusal(approveDestination(bed.db, broker, d.id))).code).toBe("own_request");
    const ok = await approveDestination(bed.db, lead, d.id);
    expect(ok).toMatchObject({ state: "approved", decidedBy: lead.email });
    // Locked for DESTINATION_LOCK_HOURS (24 h by default) from its approval: not in the book yet.
    expect(Date.parse(ok.usableFrom!) - Date.parse(ok.decidedAt!)).toBe(24 * 3_600_000);
    expect((await getWithdrawal(bed.db, w.id)).inAddressBook).toBe(false);
    await unlock(d.id);
    expect(
      (await domainRefusal(rejectDestination(bed.db, { ...lead, email: "other@brokerdesk.test" }, d.id, "too late")))
        .code,
    ).toBe("already_decided");
    expect((await getWithdrawal(bed.db, w.id)).inAddressBook).toBe(true);
    // Another chain or another tag is another destination.
    const w2 = await requestWithdrawal(
      bed.db,
      bed.client,
      broker,
      withdrawalFormSchema.parse({
        subUid: uid,
        coin: "USDT",
        dest: "on_chain",
        chain: "ERC20",
        address: "0x32Be343B94f860124dC4fEe278FDCBD38C102D88",
        amount: "1",
        reason: "book test",
        travelRule: TEST_TRAVEL_RULE,
      }),
    );
    expect(w2.inAddressBook).toBe(false);
    // An EVM address is one destination in any case: the book's checksummed entry covers a lower-case request.
    const evm = "0x32Be343B94f860124dC4fEe278FDCBD38C102D88";
    const evmEntry = await requestDestination(bed.db, broker, entry({ chain: "ERC20", address: evm, label: "EVM" }));
    await approveDestination(bed.db, lead, evmEntry.id);
    await unlock(evmEntry.id);
    const lower = await requestWithdrawal(
      bed.db,
      bed.client,
      broker,
      withdrawalFormSchema.parse({
        subUid: uid,
        coin: "USDT",
        dest: "on_chain",
        chain: "ERC20",
        address: evm.toLowerCase(),
        amount: "1",
        reason: "book test",
        travelRule: TEST_TRAVEL_RULE,
      }),
    );
    expect(lower.inAddressBook).toBe(true);
    expect((await getWithdrawal(bed.db, w2.id)).inAddressBook).toBe(true);
  });

  it("a rejected destination keeps its reason and may be asked for again", async () => {
    const d = await requestDestination(
      bed.db,
      broker,
      entry({ dest: "internal_transfer", chain: undefined, address: "1234567", label: "Treasury" }),
    );
    const r = await rejectDestination(bed.db, lead, d.id, "not our treasury UID");
    expect(r).toMatchObject({ state: "rejected", rejectReason: "not our treasury UID" });
    const again = await requestDestination(
      bed.db,
      broker,
      entry({ dest: "internal_transfer", chain: undefined, address: "1234567", label: "Treasury" }),
    );
    expect(again.state).toBe("requested");
    expect((await listDestinations(bed.db, { subUid: uid, state: "requested" })).items.map((x) => x.id)).toEqual([
      again.id,
    ]);
    await expect(
      bed.db.query(
        "UPDATE withdrawal_destinations SET decided_by = requested_by, decided_at = now(), usable_from = now(), state = 'approved' WHERE id = $1",
        [again.id],
      ),
    ).rejects.toThrow(/destination_decider_not_requester/);
  });

  it("[standing] a lead on approver hold can neither approve nor reject an entry; a person on hold cannot add one", async () => {
    const d = await requestDestination(
      bed.db,
      broker,
      entry({ dest: "internal_transfer", chain: undefined, address: "7654321", label: "Held" }),
    );
    await bed.db.query(
      "UPDATE staff_users SET approver_hold = 'factors-reset-by-admin', approver_hold_at = now(), approver_hold_by = 'admin@brokerdesk.test' WHERE id = $1",
      [lead.userId],
    );
    try {
      const approve = await domainRefusal(approveDestination(bed.db, lead, d.id));
      expect(approve.code).toBe("approver_on_hold");
      expect(approve.message).toMatch(/had its second factors reset by admin@brokerdesk\.test/);
      expect((await domainRefusal(rejectDestination(bed.db, lead, d.id, "held lead"))).code).toBe("approver_on_hold");
      const add = await domainRefusal(
        requestDestination(bed.db, lead, entry({ dest: "internal_transfer", chain: undefined, address: "7654322" })),
      );
      expect(add.code).toBe("approver_on_hold");
      // Nothing changed: still waiting, and nothing added.
      expect((await listDestinations(bed.db, { subUid: uid })).items.find((x) => x.id === d.id)?.state).toBe(
        "requested",
      );
      expect((await listDestinations(bed.db, { subUid: uid })).items.some((x) => x.address === "7654322")).toBe(false);
    } finally {
      await bed.db.query("UPDATE staff_users SET approver_hold = NULL, approver_hold_at = NULL WHERE id = $1", [
        lead.userId,
      ]);
    }
    expect((await approveDestination(bed.db, lead, d.id)).state).toBe("approved");
  });

  it("[standing] adding, approving and rejecting an entry ask for a fresh second factor, as approving a withdrawal does", () => {
    expect(destinationResources.addDestination.freshFactor).toBe(true);
    expect(destinationResources.approveDestination.freshFactor).toBe(true);
    expect(destinationResources.rejectDestination.freshFactor).toBe(true);
  });
});
