import Link from "next/link";
import { can, type Permission, type Role } from "@/lib/rbac";
import { Panel, panelLinkClass } from "@/components/ui/panel";

type Shortcut = { href: string; label: string; detail: string; permission: Permission };

// What each role opens most, in the order it does. Filtered by permission as well, so a change to
// lib/rbac.ts can never leave a link here to a page the role may not open.
const SHORTCUTS: Record<Role, Shortcut[]> = {
  compliance: [
    { href: "/audit", label: "Audit log", detail: "Who did what, when, with the outcome; export as CSV.", permission: "audit.read" },
    { href: "/deposits", label: "Deposits", detail: "Every sub-account's deposits, by range, coin and status.", permission: "deposits.read" },
    { href: "/withdrawals", label: "Withdrawals ledger", detail: "Requests, approvals and their platform outcome.", permission: "withdrawals.read" },
  ],
  broker: [
    { href: "/sub-accounts", label: "Sub-accounts", detail: "The registry; create a sub-account.", permission: "subaccounts.read" },
    { href: "/withdrawals", label: "Withdrawals", detail: "Request a withdrawal for a lead to approve.", permission: "withdrawals.write" },
    { href: "/assets", label: "Assets", detail: "Available, frozen and locked per coin.", permission: "assets.read" },
  ],
  lead: [
    { href: "/withdrawals", label: "Withdrawal approvals", detail: "Approve or reject what others requested.", permission: "withdrawals.approve" },
    { href: "/leverage", label: "Leverage", detail: "Change a symbol's leverage.", permission: "leverage.write" },
    { href: "/audit", label: "Audit log", detail: "Who did what, when, with the outcome.", permission: "audit.read" },
  ],
  admin: [
    { href: "/audit", label: "Audit log", detail: "Sign-ins, role changes and every operation.", permission: "audit.read" },
    { href: "/deposits", label: "Deposits", detail: "Every sub-account's deposits.", permission: "deposits.read" },
  ],
};

export function Shortcuts({ role }: { role: Role }) {
  const items = SHORTCUTS[role].filter((s) => can(role, s.permission));
  if (items.length === 0) return null;
  return (
    <Panel id="shortcuts-title" title="Shortcuts">
      <ul className="space-y-3 text-sm">
        {items.map((s) => (
          <li key={`${s.href}-${s.label}`}>
            <Link href={s.href} className={panelLinkClass}>
              {s.label}
            </Link>
            <p className="text-slate-600 dark:text-slate-400">{s.detail}</p>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
