import Link from "next/link";
import { PAGES, type PageId } from "@/lib/pages";
import { can, type Permission, type Role } from "@/lib/rbac";
import { Panel, panelLinkClass } from "@/components/ui/panel";

/**
 * A page from the manifest (lib/pages.ts), which gives its path, words and permission; `label` and
 * `permission` only where the shortcut is to a task narrower than the page (approving, not reading).
 */
type Shortcut = { page: PageId; detail: string; label?: string; permission?: Permission };

// What each role opens most, in the order it does. Filtered by permission as well, so a change to
// lib/rbac.ts can never leave a link here to a page the role may not open.
const SHORTCUTS: Record<Role, Shortcut[]> = {
  compliance: [
    { page: "audit", detail: "Who did what, when, with the outcome; export as CSV." },
    { page: "deposits", detail: "Every sub-account's deposits, by range, coin and status." },
    { page: "withdrawals", label: "Withdrawals ledger", detail: "Requests, approvals and their platform outcome." },
  ],
  broker: [
    { page: "subAccounts", detail: "The registry; create a sub-account." },
    { page: "withdrawals", permission: "withdrawals.write", detail: "Request a withdrawal for a lead to approve." },
    { page: "assets", detail: "Available, frozen and locked per coin." },
  ],
  lead: [
    {
      page: "withdrawals",
      label: "Withdrawal approvals",
      permission: "withdrawals.approve",
      detail: "Approve or reject what others requested.",
    },
    { page: "leverage", detail: "Change a symbol's leverage." },
    { page: "audit", detail: "Who did what, when, with the outcome." },
  ],
  admin: [
    { page: "audit", detail: "Sign-ins, role changes and every operation." },
    { page: "deposits", detail: "Every sub-account's deposits." },
  ],
};

export function Shortcuts({ role }: { role: Role }) {
  const items = SHORTCUTS[role].flatMap((s) => {
    const { path, label, permission } = PAGES[s.page];
    const needs = s.permission ?? permission;
    return needs === null || can(role, needs) ? [{ href: path, label: s.label ?? label, detail: s.detail }] : [];
  });
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
