// The money-out policy end to end in the workflows, against the simulator over loopback and a real database:
// versions drafted by one admin and published by another; a withdrawal records the version and rule that
// decided it and needs the approvals the rule names; a velocity block holds under parallel requests from three
// instances (PostgreSQL with TEST_DATABASE_URL), and a cancelled request gives its reservation back.
import { beforeAll, describe, expect, it } from "vitest";
import { withdrawalFormSchema, type WithdrawalFormInput, type WithdrawalView } from "@/lib/api/withdrawals";
import { policyResources } from "@/lib/api/policy";
import type { PolicyRule } from "@/lib/policy";
import type { StaffSession } from "@/server/auth/session";
import type { Db } from "@/server/db";
import { createTestDatabase, testEngines } from "@/server/db/testing";
import {
  addToRegistry,
  deskUid,
  domainRefusal,
  staffSession,
  STEADY_BALANCES,
  workflowTestBed,
  TEST_TRAVEL_RULE,
} from "@/server/testing";
import {
  approveWithdrawal,
  cancelWithdrawal,
  rejectWithdrawal,
  requestWithdrawal,
} from "@/server/workflows/withdrawal-requests";
import { countWaitingFor } from "@/server/workflows/withdrawal-ledger";
import { dryRun } from "./dry-run";
import { destinationKind } from "./facts";
import { discardPolicy, draftPolicy, listPolicies, publishPolicy, publishedPolicy } from "./versions";

const broker = staffSession("broker", "pbroker");
const lead1 = staffSession("lead", "plead1");
const lead2 = staffSession("lead", "plead2");
const compliance = staffSession("compliance", "pcompliance");
const admin1 = staffSession("admin", "padmin1");
const admin2 = staffSession("admin", "padmin2");
const TRON = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";

const BIG_OR_NEW: PolicyRule[] = [
  {
    name: "USDT over 50,000 value, or to a new address",
    match: "any",
    when: [
      { kind: "value", over: "50000" },
      { kind: "destination", is: ["new_address"] },
    ],
    then: {
      kind: "allow",
      approvals: [
        { role: "lead", count: 1 },
        { role: "compliance", count: 1 },
      ],
    },
  },
];

const bed = workflowTestBed({ simulator: STEADY_BALANCES, client: { timeoutMs: 5_000, backoffBaseMs: 5 } });
let desk: string;
let other: string;

async function addStaff(db: Db, sessions: StaffSession[]) {
  for (const s of sessions) {
    const { rows } = await db.query<{ id: string }>(
      "INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3) RETURNING id",
      [s.email, s.name, s.role],
    );
    s.userId = rows[0]!.id;
  }
}

beforeAll(async () => {
  desk = deskUid(bed.sim, "desk03");
  other = deskUid(bed.sim, "desk04");
  await addToRegistry(bed.db, desk, "desk03@x");
  await addToRegistry(bed.db, other, "desk04@x");
  await addStaff(bed.db, [broker, lead1, lead2, compliance, admin1, admin2]);
});

const form = (over: Partial<WithdrawalFormInput> = {}) =>
  withdrawalFormSchema.parse({
    subUid: desk,
    coin: "USDT",
    dest: "on_chain",
    address: TRON,
    amount: "60000",
    reason: "policy test",
    travelRule: TEST_TRAVEL_RULE,
    ...over,
  });
const approve = (w: WithdrawalView, by: StaffSession, db: Db = bed.db) =>
  approveWithdrawal(db, bed.client, by, w.id, { confirmAmount: w.amount, confirmAddress: w.address });

describe("[policy][versions]", () => {
  it("an admin drafts; the author cannot publish; a second admin does, and the version before is superseded", async () => {
    expect(await publishedPolicy(bed.db)).toBeNull();
    const bad = await domainRefusal(draftPolicy(bed.db, admin1, { rules: [{ name: "x", match: "all", when: [] }] }));
    expect(bad.code).toBe("invalid_input");
    expect(bad.fieldErrors?.rules?.join(" ")).toMatch(/when|then/);

    const v1 = await draftPolicy(bed.db, admin1, { rules: BIG_OR_NEW, note: "first" });
    expect(v1).toMatchObject({ version: 1, state: "draft", draftedBy: admin1.email });
    expect((await domainRefusal(publishPolicy(bed.db, admin1, v1.version))).code).toBe("own_request");
    // A second admin whose account an admin set up is on hold, as an approver is; publishing asks a fresh factor.
    await bed.db.query(
      "UPDATE staff_users SET approver_hold = 'created-by-admin', approver_hold_at = now(), approver_hold_by = $2 WHERE id = $1",
      [admin2.userId, admin1.email],
    );
    expect((await domainRefusal(publishPolicy(bed.db, admin2, v1.version))).code).toBe("approver_on_hold");
    await bed.db.query("UPDATE staff_users SET approver_hold = NULL, approver_hold_at = NULL WHERE id = $1", [
      admin2.userId,
    ]);
    expect(policyResources.publish.freshFactor).toBe(true);
    const published = await publishPolicy(bed.db, admin2, v1.version);
    expect(published).toMatchObject({ state: "published", publishedBy: admin2.email });
    expect((await domainRefusal(publishPolicy(bed.db, admin2, v1.version))).code).toBe("already_decided");

    const v2 = await draftPolicy(bed.db, admin2, { rules: [] });
    expect((await discardPolicy(bed.db, admin1, v2.version)).state).toBe("discarded");
    expect((await domainRefusal(publishPolicy(bed.db, admin1, v2.version))).code).toBe("already_decided");
    expect((await publishedPolicy(bed.db))?.version).toBe(1);
    expect((await listPolicies(bed.db)).items.map((p) => [p.version, p.state])).toEqual([
      [2, "discarded"],
      [1, "published"],
    ]);
  });
});

describe("[policy][approvals] a withdrawal needs what its rule named, from distinct people", () => {
  it("a 60,000 USDT request needs a lead and compliance: after the lead it still waits; after compliance it is sent", async () => {
    bed.sim.state.setBalance(desk, "USDT", "100000");
    const w = await requestWithdrawal(bed.db, bed.client, broker, form());
    expect(w.policy).toMatchObject({
      version: 1,
      rule: "USDT over 50,000 value, or to a new address",
      required: [
        { role: "lead", count: 1 },
        { role: "compliance", count: 1 },
      ],
      approvals: [],
      stillNeeded: "needs lead and compliance",
      valueUsdt: "60000",
    });
    expect((await countWaitingFor(bed.db, lead1.email, "lead")).waiting).toBe(1);
    expect((await countWaitingFor(bed.db, compliance.email, "compliance")).waiting).toBe(1);
    const afterLead = await approve(w, lead1);
    // Waiting for compliance only now: not for the lead who approved, nor for another lead.
    expect((await countWaitingFor(bed.db, lead1.email, "lead")).waiting).toBe(0);
    expect((await countWaitingFor(bed.db, lead2.email, "lead")).waiting).toBe(0);
    expect((await countWaitingFor(bed.db, compliance.email, "compliance")).waiting).toBe(1);
    expect(afterLead.state).toBe("requested");
    expect(afterLead.policy.stillNeeded).toBe("needs one more approval: compliance");
    expect(afterLead.policy.approvals.map((a) => [a.by, a.role])).toEqual([[lead1.email, "lead"]]);

    const second = await domainRefusal(approve(w, lead2));
    expect(second.code).toBe("approval_not_needed");
    expect(second.message).toBe(
      "This withdrawal needs one more approval: compliance: a lead's approval is not one of them",
    );
    expect((await domainRefusal(approve(w, lead1))).code).toBe("approval_not_needed");
    expect(bed.sim.state.withdrawals().filter((x) => x.clientOid === w.clientOid)).toHaveLength(0);

    const done = await approve(w, compliance);
    expect(done).toMatchObject({ state: "confirmed", approvedBy: compliance.email });
    expect(done.policy.stillNeeded).toBeNull();
    expect(bed.sim.state.withdrawals().filter((x) => x.clientOid === w.clientOid)).toHaveLength(1);
    // The database holds to it too: the requester's approval row is refused.
    await expect(
      bed.db.query("INSERT INTO withdrawal_approvals (withdrawal_id, approver, role) VALUES ($1, $2, 'lead')", [
        w.id,
        broker.email,
      ]),
    ).rejects.toThrow(/requester cannot approve/);
  });

  it("a small one to the address book needs one lead (the default); compliance's approval is not one of them", async () => {
    bed.sim.state.setBalance(desk, "USDT", "100000");
    await bed.db.query(
      `INSERT INTO withdrawal_destinations (sub_uid, dest, chain, address, tag, label, state, requested_by, decided_by, decided_at, usable_from)
       VALUES ($1, 'on_chain', 'TRC20', $2, '', 'book', 'approved', 'x@y', 'z@y', now(), now() - interval '1 hour')`,
      [desk, TRON],
    );
    const w = await requestWithdrawal(bed.db, bed.client, broker, form({ amount: "100", chain: "TRC20" }));
    expect(w.policy).toMatchObject({ version: 1, rule: "Default: one lead", stillNeeded: "needs lead" });
    expect((await domainRefusal(approve(w, compliance))).message).toBe(
      "This withdrawal needs lead: a compliance's approval is not one of them",
    );
    expect((await domainRefusal(rejectWithdrawal(bed.db, compliance, w.id, "not mine to say"))).message).toBe(
      "This withdrawal needs one lead: a compliance may not reject it",
    );
    expect((await approve(w, lead2)).state).toBe("confirmed");
  });
});

describe("[policy][destination]", () => {
  it("an address-book entry still in its lock is a new address to the policy; once the lock has passed, the book", async () => {
    const kind = (at: Date) =>
      destinationKind(bed.db, { subUid: other, dest: "on_chain", chain: "TRC20", address: TRON, tag: null }, at);
    await bed.db.query(
      `INSERT INTO withdrawal_destinations (sub_uid, dest, chain, address, tag, label, state, requested_by, decided_by, decided_at, usable_from)
       VALUES ($1, 'on_chain', 'TRC20', $2, '', 'locked', 'approved', 'x@y', 'z@y', now(), now() + interval '24 hours')`,
      [other, TRON],
    );
    expect(await kind(new Date())).toBe("new_address");
    expect(await kind(new Date(Date.now() + 25 * 3_600_000))).toBe("address_book");
    const registry = await destinationKind(
      bed.db,
      { subUid: other, dest: "internal_transfer", chain: null, address: desk, tag: null },
      new Date(),
    );
    expect(registry).toBe("internal_registry");
  });
});

describe("[policy][dry-run]", () => {
  it("shows, per past withdrawal, what a draft would require against what was required, and the totals that change", async () => {
    const draft: PolicyRule[] = [
      {
        name: "No USDT",
        match: "all",
        when: [{ kind: "coin", coins: ["USDT"] }],
        then: { kind: "block", reason: "stop" },
      },
    ];
    const run = await dryRun(bed.db, { rules: draft, last: 10 });
    expect(run.totals.withdrawals).toBe(2);
    expect(run.totals.blocked).toBe(2);
    expect(run.totals.changed).toBe(2);
    const big = run.rows.find((r) => r.amount === "60000")!;
    expect(big.was).toMatchObject({
      rule: "USDT over 50,000 value, or to a new address",
      words: "one lead and one compliance",
    });
    expect(big.would).toMatchObject({ rule: "No USDT", approvals: null, blockReason: "stop", words: "blocked: stop" });
    const same = await dryRun(bed.db, { rules: BIG_OR_NEW, last: 10 });
    expect(same.totals.changed).toBe(0);
    // A range: none requested before an hour ago.
    const before = await dryRun(bed.db, { rules: draft, last: 10, to: new Date(Date.now() - 3_600_000).toISOString() });
    expect(before.totals.withdrawals).toBe(0);
    expect((await dryRun(bed.db, { rules: draft, last: 1 })).totals.withdrawals).toBe(1);
  });
});

const VELOCITY: PolicyRule[] = [
  {
    name: "At most 5 requests a day",
    match: "all",
    when: [{ kind: "velocity", hours: 24, count: 5 }],
    then: { kind: "block", reason: "more than 5 requests in 24 h" },
  },
];

describe("[policy][velocity] limits reserved atomically", () => {
  it("a cancelled or rejected request gives its reservation back", async () => {
    const v = await draftPolicy(bed.db, admin1, { rules: VELOCITY });
    await publishPolicy(bed.db, admin2, v.version);
    bed.sim.state.setBalance(other, "USDT", "1000");
    const made: WithdrawalView[] = [];
    for (let i = 0; i < 5; i++)
      made.push(await requestWithdrawal(bed.db, bed.client, broker, form({ subUid: other, amount: "1" })));
    const refused = await domainRefusal(
      requestWithdrawal(bed.db, bed.client, broker, form({ subUid: other, amount: "1" })),
    );
    expect(refused.code).toBe("policy_blocked");
    expect(refused.message).toMatch(
      /rule “At most 5 requests a day”\) refuses this withdrawal: more than 5 requests in 24 h/,
    );
    await cancelWithdrawal(bed.db, broker, made[0]!.id);
    const again = await requestWithdrawal(bed.db, bed.client, broker, form({ subUid: other, amount: "1" }));
    expect(again.policy.rule).toBe("Default: one lead");
    await rejectWithdrawal(bed.db, lead1, made[1]!.id, "not needed");
    await requestWithdrawal(bed.db, bed.client, broker, form({ subUid: other, amount: "1" }));
    expect(
      (await domainRefusal(requestWithdrawal(bed.db, bed.client, broker, form({ subUid: other, amount: "1" })))).code,
    ).toBe("policy_blocked");
  });
});

const PG = testEngines(process.env.TEST_DATABASE_URL).filter((t) => t.engine === "postgres");

describe.skipIf(PG.length === 0)("[policy][velocity][concurrency] PostgreSQL, three instances", () => {
  it("20 requests at once across three instances never exceed the period's limit", async () => {
    const tdb = await createTestDatabase(PG[0]!);
    try {
      const instances = [await tdb.open(), await tdb.open(), await tdb.open()];
      const db = instances[0]!;
      const uid = deskUid(bed.sim, "desk05");
      await addToRegistry(db, uid, "desk05@x");
      const people = [
        staffSession("broker", "cbroker"),
        staffSession("admin", "cadmin1"),
        staffSession("admin", "cadmin2"),
      ];
      await addStaff(db, people);
      const v = await draftPolicy(db, people[1]!, { rules: VELOCITY });
      await publishPolicy(db, people[2]!, v.version);
      bed.sim.state.setBalance(uid, "USDT", "1000");
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          requestWithdrawal(instances[i % 3]!, bed.client, people[0]!, form({ subUid: uid, amount: "1" })),
        ),
      );
      const ok = results.filter((r) => r.status === "fulfilled");
      const blocked = results.filter(
        (r) => r.status === "rejected" && (r.reason as { code?: string }).code === "policy_blocked",
      );
      expect(ok).toHaveLength(5);
      expect(blocked).toHaveLength(15);
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM withdrawal_requests WHERE sub_uid = $1",
        [uid],
      );
      expect(rows[0]!.n).toBe(5);
    } finally {
      await tdb.dispose();
    }
  });
});
