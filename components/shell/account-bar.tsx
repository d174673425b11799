import Link from "next/link";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import { Badge } from "@/components/ui/badge";
import { NotificationBell } from "./notification-bell";
import type { Role } from "@/lib/rbac";

/** The header's right side: who is signed in (e-mail and role), the theme and signing out. */
export function AccountBar({ email, role }: { email: string; role: Role }) {
  return (
    // A full-width second row on phones (the e-mail shortens first); beside the brand from `sm` up.
    <div className="flex w-full min-w-0 items-center gap-3 text-sm sm:ml-auto sm:w-auto">
      <p className="flex min-w-0 flex-1 items-center gap-2 sm:flex-none" data-testid="session-user">
        <span className="sr-only">Signed in as</span>
        <Link
          href="/account"
          className="truncate text-slate-700 underline-offset-2 hover:underline dark:text-slate-300"
          title={`${email}: your account`}
        >
          {email}
        </Link>
        <span className="sr-only">, role</span>
        <Badge tone="info">{role}</Badge>
      </p>
      <NotificationBell />
      <Link
        href="/account/security"
        className={
          "rounded-md px-2 py-1 font-medium text-blue-800 underline hover:bg-slate-100 dark:text-blue-300 " +
          "dark:hover:bg-slate-800"
        }
      >
        Security
      </Link>
      <ThemeToggle />
      <SignOutButton />
    </div>
  );
}
