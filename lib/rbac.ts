// Who may do what, as data (ARCHITECTURE "Roles"). The server checks it first in every handler;
// the UI uses the same table only to hide what the server would refuse.

export const ROLES = ["compliance", "broker", "lead", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Reads of the platform's data, through the proxy and the ledger. */
const READ_PLATFORM = [
  "deposits.read",
  "assets.read",
  "planOrders.read",
  "fills.read",
  "rebates.read",
  "market.read",
  "oiLimits.read",
] as const;
/** Reads of what Brokerdesk itself records. */
const READ_LEDGERS = ["withdrawals.read", "subaccounts.read", "riskUnits.read"] as const;

/** What the desk does on the platform and records: sub-accounts, risk-unit bindings, withdrawal requests. */
const DESK_WRITES = ["subaccounts.write", "riskUnits.write", "withdrawals.write"] as const;
/** What only leads do: approve withdrawals (a second person) and change leverage. */
const LEAD_WRITES = ["withdrawals.approve", "leverage.write"] as const;
const USER_ADMIN = ["users.read", "users.write"] as const;
/** Webhook endpoints: add one, change its events, rotate its secret; a second admin confirms what sends data out. */
const WEBHOOKS = ["webhooks.manage"] as const;
/** The money-out policy (server/policy/): read it; draft it; publish a draft (a second admin, fresh factor). */
const POLICY = ["policy.read", "policy.write", "policy.approve"] as const;
/** Monitoring: read alerts, cases and rules; work them and draft rules; activate a version (not one's own). */
const MONITORING = ["monitoring.read", "monitoring.write", "monitoring.approve"] as const;
/** Sub-account API keys held as data: read the list; add, rotate, disable; approve another admin's (fresh factor). */
const SUBACCOUNT_KEYS = ["subaccountKeys.read", "subaccountKeys.write", "subaccountKeys.approve"] as const;

export const PERMISSIONS = [
  ...READ_PLATFORM,
  ...READ_LEDGERS,
  "audit.read",
  ...DESK_WRITES,
  ...LEAD_WRITES,
  ...USER_ADMIN,
  ...WEBHOOKS,
  ...POLICY,
  ...MONITORING,
  ...SUBACCOUNT_KEYS,
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  // Compliance approves a withdrawal only where the money-out policy asks for a compliance approval (the
  // approval gate refuses any other); under the default policy, none.
  compliance: [...READ_PLATFORM, ...READ_LEDGERS, "audit.read", "withdrawals.approve", "policy.read", ...MONITORING],
  broker: [...READ_PLATFORM, ...READ_LEDGERS, ...DESK_WRITES],
  lead: [...READ_PLATFORM, ...READ_LEDGERS, "audit.read", ...DESK_WRITES, ...LEAD_WRITES, "policy.read"],
  admin: [
    ...READ_PLATFORM,
    ...READ_LEDGERS,
    "audit.read",
    ...USER_ADMIN,
    ...WEBHOOKS,
    ...POLICY,
    "monitoring.read",
    "monitoring.approve",
    ...SUBACCOUNT_KEYS,
  ],
};

/**
 * What decides on others' requests or on a control: approving withdrawals, the money-out policy, monitoring's
 * rules, holds and cases. A role change that gains one puts the account on approver hold (server/auth/users.ts),
 * and the account page shows the standing of every role that has one.
 */
export const DECISION_PERMISSIONS = [
  "withdrawals.approve",
  "policy.write",
  "policy.approve",
  "monitoring.write",
  "monitoring.approve",
  "subaccountKeys.approve",
] as const satisfies readonly Permission[];

/** Whether a role decides anything (DECISION_PERMISSIONS). */
export const decides = (role: Role) => DECISION_PERMISSIONS.some((p) => can(role, p));

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role ? ROLE_PERMISSIONS[role].includes(permission) : false;
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** What each role may do, in words for staff (the admin page shows it beside the roles). */
export const ROLE_DESCRIPTIONS: Readonly<Record<Role, string>> = {
  compliance:
    "Reads everything on the platform and in Brokerdesk's records, and the audit log; works monitoring alerts " +
    "and cases, clears holds, drafts and activates others' rules; approves withdrawals where the money-out " +
    "policy asks for compliance.",
  broker: "Reads the platform and the records; creates sub-accounts, binds risk units and requests withdrawals.",
  lead:
    "What a broker does, plus approving or rejecting others' withdrawals, setting leverage and reading the " +
    "audit log.",
  admin:
    "Manages staff (adds them, changes roles, disables, resets passwords and second factors), drafts and " +
    "publishes the money-out policy (a second admin publishes), reads the audit log and activates others' " +
    "monitoring rules; holds sub-account API keys (adds, rotates, disables; approves another admin's); moves no money.",
};
