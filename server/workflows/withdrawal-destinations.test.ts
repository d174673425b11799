// The address book against a real (PGlite) database and the simulator over loopback: a destination needs a
// second person, a decision is made once, and a withdrawal says whether its destination is in the book.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "@/lib/api/errors";
import { destinationFormSchema, type DestinationFormInput } from "@/lib/api/withdrawal-destinations";
import { withdrawalFormSchema } from "@/lib/api/withdrawals";
import type { StaffSession } from "@/server/auth/session";
import { openDb, type Db } from "@/server/db";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { startSimulator, type Simulator } from "@/server/simulator";
import { approveDestination, listDestinations, rejectDestination, requestDestination } from "./withdrawal-destinations";
import { getWithdrawal } from "./withdrawal-ledger";
import { requestWithdrawal } from "./withdrawal-requests";

const broker: StaffSession = { userId: "b", email: "broker@brokerdesk.test", name: "broker", role: "broker" };
const lead: StaffSession = { userId: "l", email: "lead@brokerdesk.test", name: "lead", role: "lead" };
const TRON = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";

let sim: Simulator;
let client: PlatformClient;
let db: Db;
let uid: string;

beforeAll(async () => {
  // Balances are set and then checked to the unit: no pending deposit of the history may settle mid-test and
  // credit one (a 30-minute wait after its creation by default; one did, and a balance read 4853.58 for 997).
  sim = await startSimulator({ port: 0, depositSettleMs: 0 });
  client = new PlatformClient({ baseUrl: sim.baseUrl, credentials: new CredentialStore({ main: sim.keys.brokerMain }), timeoutMs: 5_000, backoffBaseMs: 5 });
  db = await openDb({ dataDir: "memory://" });
  uid = sim.state.subaccountsOf(sim.keys.brokerMain.uid).find((s) => s.subaccountName.startsWith("desk02@"))!.uid;
  await db.query("INSERT INTO subaccounts (sub_uid, subaccount_name, status, source, created_by) VALUES ($1, 'desk02@x', 'normal', 'added', 'test')", [uid]);
}, 60_000);
afterAll(async () => {
  client.close();
  await db.close();
  await sim.close();
});

const entry = (over: Partial<DestinationFormInput> = {}) =>
  destinationFormSchema.parse({ subUid: uid, dest: "on_chain", chain: "trc20", address: TRON, label: "Client A's wallet", ...over });
const refusal = async (p: Promise<unknown>) => {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(DomainError);
  return e as DomainError;
};

describe("[withdrawals][address-book]", () => {
  it("the server checks the address for the chain and names the field; the form names a missing chain", async () => {
    const bad = await refusal(requestDestination(db, broker, entry({ address: "abc" })));
    expect(bad.fieldErrors).toEqual({ address: ["address is not a valid Tron address (chain TRC20): check it character by character"] });
    expect((await listDestinations(db, { subUid: uid })).items).toHaveLength(0);
    const noChain = destinationFormSchema.safeParse({ subUid: uid, dest: "on_chain", address: TRON, label: "x" });
    expect(noChain.success ? [] : noChain.error.issues.map((i) => i.path[0])).toEqual(["chain"]);
  });

  it("a destination needs a second person; a withdrawal to it is in the book only once approved", async () => {
    sim.state.setBalance(uid, "USDT", "100");
    const w = await requestWithdrawal(db, client, broker, withdrawalFormSchema.parse({ subUid: uid, coin: "USDT", dest: "on_chain", address: TRON, amount: "1", reason: "book test" }));
    expect(w.inAddressBook).toBe(false);

    const d = await requestDestination(db, broker, entry());
    expect(d).toMatchObject({ state: "requested", chain: "TRC20", tag: "", requestedBy: broker.email });
    expect((await refusal(requestDestination(db, lead, entry()))).code).toBe("already_registered");
    expect((await getWithdrawal(db, w.id)).inAddressBook).toBe(false);
    expect((await refusal(approveDestination(db, broker, d.id))).code).toBe("own_request");
    const ok = await approveDestination(db, lead, d.id);
    expect(ok).toMatchObject({ state: "approved", decidedBy: lead.email });
    expect((await refusal(rejectDestination(db, { ...lead, email: "other@brokerdesk.test" }, d.id, "too late"))).code).toBe("already_decided");
    expect((await getWithdrawal(db, w.id)).inAddressBook).toBe(true);
    // Another chain or another tag is another destination.
    const w2 = await requestWithdrawal(db, client, broker, withdrawalFormSchema.parse({ subUid: uid, coin: "USDT", dest: "on_chain", chain: "ERC20", address: "0x32Be343B94f860124dC4fEe278FDCBD38C102D88", amount: "1", reason: "book test" }));
    expect(w2.inAddressBook).toBe(false);
  });

  it("a rejected destination keeps its reason and may be asked for again", async () => {
    const d = await requestDestination(db, broker, entry({ dest: "internal_transfer", chain: undefined, address: "1234567", label: "Treasury" }));
    const r = await rejectDestination(db, lead, d.id, "not our treasury UID");
    expect(r).toMatchObject({ state: "rejected", rejectReason: "not our treasury UID" });
    const again = await requestDestination(db, broker, entry({ dest: "internal_transfer", chain: undefined, address: "1234567", label: "Treasury" }));
    expect(again.state).toBe("requested");
    expect((await listDestinations(db, { subUid: uid, state: "requested" })).items.map((x) => x.id)).toEqual([again.id]);
    await expect(db.query("UPDATE withdrawal_destinations SET decided_by = requested_by, decided_at = now(), state = 'approved' WHERE id = $1", [again.id])).rejects.toThrow(/destination_decider_not_requester/);
  });
});
