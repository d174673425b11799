// Who may do what, as data (ARCHITECTURE "Roles"). The server checks it first in every handler;
// the UI uses the same table only to hide what the server would refuse.

export const ROLES = ["compliance", "broker", "lead", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  "deposits.read",
  "assets.read",
  "planOrders.read",
  "fills.read",
  "rebates.read",
  "market.read",
  "oiLimits.read",
  "withdrawals.read",
  "subaccounts.read",
  "riskUnits.read",
  "audit.read",
  "subaccounts.write",
  "riskUnits.write",
  "withdrawals.write",
  "withdrawals.approve",
  "leverage.write",
  "users.read",
  "users.write",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const READ_PLATFORM: Permission[] = [
  "deposits.read",
  "assets.read",
  "planOrders.read",
  "fills.read",
  "rebates.read",
  "market.read",
  "oiLimits.read",
];
const READ_LEDGERS: Permission[] = ["withdrawals.read", "subaccounts.read", "riskUnits.read"];

export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  compliance: [...READ_PLATFORM, ...READ_LEDGERS, "audit.read"],
  broker: [...READ_PLATFORM, ...READ_LEDGERS, "subaccounts.write", "riskUnits.write", "withdrawals.write"],
  lead: [
    ...READ_PLATFORM,
    ...READ_LEDGERS,
    "audit.read",
    "subaccounts.write",
    "riskUnits.write",
    "withdrawals.write",
    "withdrawals.approve",
    "leverage.write",
  ],
  admin: [...READ_PLATFORM, ...READ_LEDGERS, "audit.read", "users.read", "users.write"],
};

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role ? ROLE_PERMISSIONS[role].includes(permission) : false;
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** What each role may do, in words for staff (the admin page shows it beside the roles). */
export const ROLE_DESCRIPTIONS: Readonly<Record<Role, string>> = {
  compliance: "Reads everything on the platform and in Brokerdesk's records, and the audit log; changes nothing.",
  broker: "Reads the platform and the records; creates sub-accounts, binds risk units and requests withdrawals.",
  lead: "What a broker does, plus approving or rejecting others' withdrawals, setting leverage and reading the audit log.",
  admin: "Manages staff (adds them, changes roles, disables, resets passwords and second factors) and reads the audit log; moves no money.",
};
