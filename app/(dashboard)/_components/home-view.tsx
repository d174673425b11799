// The home page's cards: what each role needs first, the platform's health for all, then the role's own cards.
import type { ReactNode } from "react";
import { HealthPanel } from "@/components/health-panel";
import { frameClass } from "@/components/shell/page-frame";
import { can } from "@/lib/rbac";
import type { StaffSession } from "@/server/auth/session";
import { PendingWithdrawals } from "./pending-withdrawals";
import { PlatformOperations } from "./platform-operations";
import { RecentDeposits } from "./recent-deposits";
import { Shortcuts } from "./shortcuts";
import { StaffSummary } from "./staff-summary";

export function HomeView({ session }: { session: StaffSession }) {
  const { role } = session;
  return (
    <div className={frameClass()}>
      <div>
        <h1 className="text-2xl font-bold">Home</h1>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          Signed in as {session.name ?? session.email} ({role}). Times are in UTC.
        </p>
      </div>
      {/* Two columns from xl (the role's lists on the left, health and links on the right); one column
          below, where `contents` lets the order-* classes put health first and the lists next. */}
      <div className="flex flex-col gap-4 xl:grid xl:grid-cols-3 xl:items-start">
        <div className="contents xl:col-span-2 xl:flex xl:min-w-0 xl:flex-col xl:gap-4">
          {can(role, "withdrawals.approve") && (
            <Slot className="order-2">
              <PendingWithdrawals currentEmail={session.email} />
            </Slot>
          )}
          {can(role, "deposits.read") && (
            <Slot className="order-3">
              <RecentDeposits />
            </Slot>
          )}
        </div>
        <div className="contents xl:flex xl:min-w-0 xl:flex-col xl:gap-4">
          {/* HealthPanel draws its own frame; the wrapper gives it the cards' surface. */}
          <Slot className="order-1 rounded-lg bg-white dark:bg-slate-900">
            <HealthPanel />
          </Slot>
          <Slot className="order-4">
            <Shortcuts role={role} />
          </Slot>
          {can(role, "users.read") && (
            <Slot className="order-5">
              <StaffSummary />
            </Slot>
          )}
        </div>
      </div>
      <PlatformOperations />
    </div>
  );
}

/** A card's place: its order in one column (below xl), none in the two columns' flow (from xl). */
function Slot({ className, children }: { className: string; children: ReactNode }) {
  return <div className={`${className} min-w-0 xl:order-none`}>{children}</div>;
}
