import type { ReactNode } from "react";
import { FactorPrompt } from "@/components/auth/factor-prompt";
import { ResetNotice } from "@/components/auth/reset-notice";
import { SessionActivity } from "@/components/auth/session-activity";
import { AccountBar } from "@/components/shell/account-bar";
import { AppFrame } from "@/components/shell/app-frame";
import { Brand } from "@/components/shell/brand";
import { navFor } from "@/components/shell/nav";
import { env } from "@/lib/env";
import { resetNoticeShown } from "@/server/auth/mfa";
import { requireStaffSession } from "@/server/auth/session";

// Every page below needs a signed-in staff member. Layouts do not re-render on client navigation, so
// pages with their own rules check again (admin/users), and every API route checks in apiRoute.
// The sidebar only hides what the server would refuse (lib/rbac.ts is the gate).
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await requireStaffSession("/");
  // Seen once a page that shows it reaches its holder, not at sign-in: a sign-in that opens no page
  // (a script with the password) must not use it up.
  if (session.mfaResetAt) await resetNoticeShown(session.userId, session.mfaResetAt);
  return (
    <>
      <AppFrame
        sections={navFor(session.role)}
        brand={<Brand mode={env.mode} />}
        account={<AccountBar email={session.email} role={session.role} />}
      >
        {session.mfaResetAt ? (
          <div className="max-w-6xl px-4 pt-4 sm:px-6">
            <ResetNotice at={session.mfaResetAt} />
          </div>
        ) : null}
        {children}
      </AppFrame>
      <SessionActivity />
      <FactorPrompt />
    </>
  );
}
