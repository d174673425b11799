// can() against the roles table of shared/design/ARCHITECTURE.md "Roles (staff)", cell by cell.
import { describe, expect, it } from "vitest";
import { PERMISSIONS, ROLES, can, isRole, type Permission, type Role } from "@/lib/rbac";

const ALL: Role[] = ["compliance", "broker", "lead", "admin"];

// Every permission must appear here (the Record type makes a new one fail to compile until it is placed).
const MATRIX: Record<Permission, Role[]> = {
  // read deposits, assets, plan orders, fills, rebates, market data, OI limits: everyone
  "deposits.read": ALL,
  "assets.read": ALL,
  "planOrders.read": ALL,
  "fills.read": ALL,
  "rebates.read": ALL,
  "market.read": ALL,
  "oiLimits.read": ALL,
  // read withdrawals ledger, sub-account registry, risk units: everyone
  "withdrawals.read": ALL,
  "subaccounts.read": ALL,
  "riskUnits.read": ALL,
  // read and export the audit log
  "audit.read": ["compliance", "lead", "admin"],
  // create sub-account, bind/unbind risk unit
  "subaccounts.write": ["broker", "lead"],
  "riskUnits.write": ["broker", "lead"],
  // request a withdrawal
  "withdrawals.write": ["broker", "lead"],
  // approve or reject a withdrawal: compliance as the money-out policy says (the approval gate decides)
  "withdrawals.approve": ["compliance", "lead"],
  // change leverage
  "leverage.write": ["lead"],
  // manage staff users
  "users.read": ["admin"],
  "users.write": ["admin"],
  "webhooks.manage": ["admin"],
  // read the money-out policy; draft one; publish one (a second admin)
  "policy.read": ["compliance", "lead", "admin"],
  "policy.write": ["admin"],
  "policy.approve": ["admin"],
  // work alerts and cases, clear a hold, draft and backtest rules; activate a rule version (not its author)
  "monitoring.read": ["compliance", "admin"],
  "monitoring.write": ["compliance"],
  "monitoring.approve": ["compliance", "admin"],
  // sub-account API keys held as data: read, add/rotate/disable, approve another admin's
  "subaccountKeys.read": ["admin"],
  "subaccountKeys.write": ["admin"],
  "subaccountKeys.approve": ["admin"],
};

const cells = ROLES.flatMap((role) =>
  PERMISSIONS.map((permission) => ({ role, permission, allowed: MATRIX[permission].includes(role) })),
);

describe("[rbac][can]", () => {
  it("[rbac][roles] are exactly the four staff roles", () => {
    expect([...ROLES]).toEqual(ALL);
  });

  it("[rbac][permissions] the matrix covers every permission and nothing else", () => {
    expect(Object.keys(MATRIX).sort()).toEqual([...PERMISSIONS].sort());
  });

  it.each(cells)("[rbac][can] $role / $permission → $allowed", ({ role, permission, allowed }) => {
    expect(can(role, permission)).toBe(allowed);
  });

  it.each(PERMISSIONS.map((permission) => ({ permission })))(
    "[rbac][can] no session may $permission",
    ({ permission }) => {
      expect(can(null, permission)).toBe(false);
      expect(can(undefined, permission)).toBe(false);
    },
  );

  it.each([
    ["lead", true],
    ["admin", true],
    ["Lead", false],
    ["owner", false],
    ["", false],
    [null, false],
    [1, false],
  ] as const)("[rbac][isRole] %j → %j", (value, expected) => {
    expect(isRole(value)).toBe(expected);
  });
});
