// What a chaos run starts from: its staff, three registered desks with a known balance, the sub-accounts the
// address book may name (internal transfers to them), and a published money-out policy whose rules make the
// approvals a withdrawal needs depend on where it goes and how much it is, so the checker has more than one
// requirement to hold each withdrawal to.
import type { StaffSession } from "@/server/auth/session";
import type { Db } from "@/server/db";
import type { Simulator } from "@/server/simulator";
import type { PolicyRule } from "@/lib/policy";
import { FIXTURE_HOLDER } from "@/lib/ivms101-fixtures";

export type ChaosStaff = { brokers: StaffSession[]; approvers: StaffSession[] };
export type ChaosWorld = { staff: ChaosStaff; desks: string[]; others: string[]; initial: Record<string, string> };

/** The desk's starting USDT: enough for every request of a long run's share to be possible. */
const START = "1000000";

export const CHAOS_POLICY: PolicyRule[] = [
  {
    name: "Large",
    match: "all",
    when: [{ kind: "amount", coin: "USDT", over: "18" }],
    then: { kind: "allow", approvals: [{ role: "lead", count: 2 }] },
  },
  {
    name: "New address",
    match: "all",
    when: [
      { kind: "destination", is: ["new_address"] },
      { kind: "amount", coin: "USDT", over: "10" },
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

const staff = (role: StaffSession["role"], name: string): StaffSession => ({
  userId: name,
  email: `${name}@chaos.test`,
  name,
  role,
});

export async function prepareWorld(db: Db, sim: Simulator): Promise<ChaosWorld> {
  const brokers = [staff("broker", "broker1"), staff("broker", "broker2")];
  const approvers = [
    staff("lead", "lead1"),
    staff("lead", "lead2"),
    staff("lead", "lead3"),
    staff("compliance", "compliance1"),
    staff("compliance", "compliance2"),
  ];
  for (const s of [...brokers, ...approvers]) {
    const { rows } = await db.query<{ id: string }>(
      "INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3) RETURNING id",
      [s.email, s.name, s.role],
    );
    s.userId = rows[0]!.id;
  }
  const normal = sim.state
    .subaccountsOf(sim.keys.brokerMain.uid)
    .filter((s) => s.status === "normal")
    .map((s) => s.uid);
  const desks = normal.slice(0, 3);
  for (const uid of desks) {
    await db.query(
      `INSERT INTO subaccounts (sub_uid, subaccount_name, status, source, created_by, holder)
       VALUES ($1, $2, 'normal', 'added', 'chaos', $3::jsonb)`,
      // The holder is the Travel Rule's originator of the workload's on-chain requests.
      [uid, `chaos-${uid}`, JSON.stringify(FIXTURE_HOLDER)],
    );
    sim.state.setBalance(uid, "USDT", START);
  }
  // Published by one admin, drafted by another (as the policy page requires).
  await db.query(
    `INSERT INTO money_out_policies (version, state, rules, drafted_by, published_by, published_at)
     VALUES (1, 'published', $1::jsonb, 'admin1@chaos.test', 'admin2@chaos.test', now())`,
    [JSON.stringify(CHAOS_POLICY)],
  );
  return {
    staff: { brokers, approvers },
    desks,
    others: normal.slice(3, 6),
    initial: Object.fromEntries(desks.map((d) => [d, START])),
  };
}
