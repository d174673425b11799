import Link from "next/link";
import type { ReactNode } from "react";
import { SessionActivity } from "@/components/auth/session-activity";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { ModeBadge } from "@/components/mode-badge";
import { Badge } from "@/components/ui/badge";
import { env } from "@/lib/env";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";

// Every page below needs a signed-in staff member. Layouts do not re-render on client navigation, so
// pages with their own rules check again (admin/users), and every API route checks in apiRoute.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await requireStaffSession("/");
  const link = "rounded px-1 font-medium text-blue-800 hover:underline dark:text-blue-300";
  return (
    <>
      <header className="border-b border-slate-200 dark:border-slate-700">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-4 gap-y-2 px-6 py-3">
          <Link href="/" className="text-lg font-bold">
            Brokerdesk
          </Link>
          <ModeBadge mode={env.mode} />
          <nav aria-label="Main">
            <ul className="flex gap-3 text-sm">
              <li>
                <Link href="/" className={link}>
                  Home
                </Link>
              </li>
              {can(session.role, "users.read") && (
                <li>
                  <Link href="/admin/users" className={link}>
                    Staff users
                  </Link>
                </li>
              )}
            </ul>
          </nav>
          <div className="ml-auto flex items-center gap-3 text-sm">
            <p className="flex items-center gap-2" data-testid="session-user">
              <span className="sr-only">Signed in as</span>
              <span>{session.email}</span>
              <span className="sr-only">, role</span>
              <Badge tone="info">{session.role}</Badge>
            </p>
            <SignOutButton />
          </div>
        </div>
      </header>
      <SessionActivity />
      {children}
    </>
  );
}
